// Validates docker-compose.yml offline, without a container engine: a compose implementation must accept it
// (Debian's `docker-compose` 1.29 first, else the `docker compose` plugin), and the configuration it
// normalizes must keep the stack's rules: localhost-only ports, pinned images, health checks and restart
// policies, the worker built here with its environment passed through, and every search attribute the session
// workflow upserts registered by deploy/temporal/setup-namespace.sh; and the worker image (Dockerfile) runs compiled
// JavaScript as a non-root user on Node 22 or later.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const FILE = "docker-compose.yml";
// Every profile, so optional services are checked too.
const PROFILES = ["--profile", "redis"];
const REQUIRED_SERVICES = [
  "postgresql",
  "temporal-schema",
  "temporal",
  "temporal-setup",
  "temporal-ui",
  "worker",
  "redis",
];
const WORKER_ENV = [
  "TEMPORAL_ADDRESS",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "REDIS_URL",
  "LITE_AGENT_HEALTH_AGENTS",
];
/** A password the stack requires; the check supplies one, and also makes sure the stack refuses to run without. */
const REQUIRED_SECRET = "TEMPORAL_DB_PASSWORD";
const MIN_NODE_MAJOR = 22;
const ONE_SHOT = /^(no|on-failure(:\d+)?)$/;

/** True when `command args` runs and exits 0; false when it is missing or fails. */
function succeeds(command, args) {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** YAML to a value, through the PyYAML that Debian's docker-compose depends on. */
function parseYaml(text) {
  const script = "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)";
  return JSON.parse(execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" }));
}

/** The normalized configuration and the tool that produced it; exits 1 when the tool rejects the file. */
function normalizedConfig(env = { ...process.env, [REQUIRED_SECRET]: "compose-check" }) {
  const stdio = ["ignore", "pipe", "inherit"];
  try {
    if (succeeds("docker-compose", ["version"])) {
      const yaml = execFileSync("docker-compose", ["-f", FILE, ...PROFILES, "config"], {
        encoding: "utf8",
        stdio,
        env,
      });
      return { tool: "docker-compose config", config: parseYaml(yaml) };
    }
    if (succeeds("docker", ["compose", "version"])) {
      const args = ["compose", "-f", FILE, ...PROFILES, "config", "--format", "json"];
      return {
        tool: "docker compose config",
        config: JSON.parse(execFileSync("docker", args, { encoding: "utf8", stdio, env })),
      };
    }
  } catch (error) {
    console.error(`${FILE} does not parse: ${error.message}`);
    process.exit(1);
  }
  console.error("no compose implementation found: apt-get install -y docker-compose");
  process.exit(1);
}

/** Problems with one port mapping: it must bind 127.0.0.1 (short `ip:host:container` or long syntax). */
function portProblems(name, port) {
  const hostIp =
    typeof port === "object"
      ? port.host_ip
      : String(port).split(":").length === 3
        ? String(port).split(":")[0]
        : undefined;
  return hostIp === "127.0.0.1" ? [] : [`${name}: port ${JSON.stringify(port)} is not bound to 127.0.0.1`];
}

/** Problems with a service's image: a tag other than `latest`, or a digest. */
function imageProblems(name, service) {
  if (!service.image) return service.build ? [] : [`${name}: no image and no build`];
  const reference = service.image.split("/").pop();
  const tag = reference.includes("@") ? "digest" : reference.split(":")[1];
  return !tag || tag === "latest" ? [`${name}: image ${service.image} is not pinned to a version`] : [];
}

/** Problems with restart and health: long-running services need both a restart policy and a health check. */
function lifecycleProblems(name, service) {
  if (!service.restart) return [`${name}: no restart policy`];
  if (ONE_SHOT.test(service.restart)) return [];
  const test = service.healthcheck?.test;
  return !test || service.healthcheck.disable || (Array.isArray(test) && test[0] === "NONE")
    ? [`${name}: no health check`]
    : [];
}

function serviceProblems(name, service) {
  return [
    ...(service.ports ?? []).flatMap((port) => portProblems(name, port)),
    ...imageProblems(name, service),
    ...lifecycleProblems(name, service),
  ];
}

/** Problems with the worker: built from this repository's Dockerfile, with the environment passed through. */
function workerProblems(worker) {
  if (!worker) return [];
  const problems = worker.build ? [] : ["worker: not built from the Dockerfile"];
  const environment = worker.environment ?? {};
  for (const name of WORKER_ENV)
    if (!(name in environment)) problems.push(`worker: ${name} is not passed through`);
  return problems;
}

/** Every `Name: "Kind"` a session may upsert (all the file's specs) must be registered as `Name=Kind` by the setup script. */
function searchAttributeProblems() {
  const source = readFileSync("src/worker/session-search-attributes.ts", "utf8");
  const attributes = [
    ...source.matchAll(/(\w+):\s*"(Text|Keyword|Int|Double|Bool|Datetime|KeywordList)"/g),
  ].map(([, name, kind]) => `${name}=${kind}`);
  const script = readFileSync("deploy/temporal/setup-namespace.sh", "utf8");
  if (attributes.length === 0)
    return ["no search attributes found in src/worker/session-search-attributes.ts"];
  return attributes
    .filter((spec) => !script.includes(spec))
    .map((spec) => `deploy/temporal/setup-namespace.sh does not register ${spec}`);
}

/** The stack must refuse to start without its database password, rather than fall back to a known one. */
function secretProblems() {
  const env = { ...process.env };
  delete env[REQUIRED_SECRET];
  const compose = succeeds("docker-compose", ["version"])
    ? ["docker-compose", ["-f", FILE, "config"]]
    : ["docker", ["compose", "-f", FILE, "config"]];
  try {
    execFileSync(compose[0], compose[1], { env, stdio: "pipe" });
    return [`the stack starts without ${REQUIRED_SECRET} (it must be required: \${${REQUIRED_SECRET}:?...})`];
  } catch (error) {
    const said = `${error.stderr ?? ""}${error.stdout ?? ""}`;
    return said.includes(REQUIRED_SECRET)
      ? []
      : [`without ${REQUIRED_SECRET} the error does not name it: ${said}`];
  }
}

/** The stages of a Dockerfile: the text from each `FROM` to the next. */
function stages(text) {
  return text.split(/^(?=FROM\s)/m).filter((stage) => /^FROM\s/.test(stage));
}

/**
 * The image runs compiled JavaScript: a build stage runs `npm run build`, and the final stage installs runtime
 * dependencies only, copies dist/ from the build, and neither copies the TypeScript sources nor names tsx.
 */
function compiledImageProblems(text) {
  const all = stages(text);
  const final = (all.at(-1) ?? "").replace(/^\s*#.*$/gm, "");
  const problems = [];
  if (!all.slice(0, -1).some((stage) => /^RUN\s+npm run build\b/m.test(stage)))
    problems.push("Dockerfile: no build stage runs `npm run build`");
  if (!/^RUN\s+npm ci\b[^\n]*--omit=dev/m.test(final))
    problems.push("Dockerfile: the final stage must install runtime dependencies only (npm ci --omit=dev)");
  const worker = JSON.parse(readFileSync("package.json", "utf8")).devDependencies["@temporalio/worker"];
  if (!final.includes(`npm install --no-save --save-prod --no-audit --no-fund @temporalio/worker@${worker}`))
    problems.push(
      `Dockerfile: the final stage must add the worker package (an optional peer): @temporalio/worker@${worker}`,
    );
  if (!/^COPY\s+--from=\S+[^\n]*[\s/]dist\b/m.test(final))
    problems.push("Dockerfile: the final stage must copy dist/ from the build stage");
  if (/^COPY\b[^\n]*[\s/]src\b/m.test(final))
    problems.push("Dockerfile: the final stage copies the TypeScript sources (src/); it runs dist/");
  if (/\btsx\b/.test(final)) problems.push("Dockerfile: the final stage runs TypeScript through tsx");
  return problems;
}

/** The worker image: a current Node LTS base in every stage, a non-root user, compiled JavaScript. */
function dockerfileProblems() {
  const text = readFileSync("Dockerfile", "utf8");
  const problems = [];
  const bases = [...text.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]);
  if (bases.length === 0) problems.push("Dockerfile: no FROM");
  for (const base of bases) {
    const major = /^node:(\d+)/.exec(base);
    if (!major || Number(major[1]) < MIN_NODE_MAJOR)
      problems.push(`Dockerfile: the base image must be node:${MIN_NODE_MAJOR} or later, not ${base}`);
  }
  const users = [...text.matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]);
  if (users.length === 0 || ["root", "0"].includes(users.at(-1)))
    problems.push("Dockerfile: the image must run as a non-root user (USER node)");
  return [...problems, ...compiledImageProblems(text)];
}

/**
 * The mount the compose file documents for a user's agents module must be under the image's /app: only there does
 * `import ... from "lite-agent-temporal"` resolve (the package's self-reference) with the package's dependencies.
 */
function agentsMountProblems() {
  const text = readFileSync(FILE, "utf8");
  const mounts = [...text.matchAll(/volumes:\s*\["[^:"]+:([^:"]+)/g)].map((match) => match[1]);
  if (mounts.length === 0) return ["the comment that shows how to mount an agents module is missing"];
  return mounts
    .filter((target) => !target.startsWith("/app/"))
    .map((target) => `an agents module mounted at ${target} cannot import the package: mount it under /app/`);
}

if (!existsSync(FILE)) {
  console.error(`${FILE} is missing`);
  process.exit(1);
}
const { tool, config } = normalizedConfig();
const services = config.services ?? {};
const problems = [
  ...REQUIRED_SERVICES.filter((name) => !services[name]).map((name) => `service ${name} is missing`),
  ...Object.entries(services).flatMap(([name, service]) => serviceProblems(name, service)),
  ...workerProblems(services.worker),
  ...searchAttributeProblems(),
  ...secretProblems(),
  ...dockerfileProblems(),
  ...agentsMountProblems(),
];
for (const problem of problems) console.error(`${FILE}: ${problem}`);
if (problems.length > 0) process.exit(1);
console.log(`${tool}: ${FILE} parses; ${Object.keys(services).length} services keep the rules`);
