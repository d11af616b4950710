import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MissingPackageError, OPTIONAL_PACKAGES } from "../../src/runtime/optional-package.js";
import { TRACING_PACKAGES } from "../../src/telemetry/tracing-sdk.js";
import { uniqueTaskQueue } from "../support/test-worker.js";
import { guideModules, readmeSampleModule } from "./readme-sample.js";
import { npm, packAndInstall, type ScratchProject } from "./scratch-project.js";

/** The parts of this repository's package.json the tests read. */
interface PackageManifest {
  devDependencies: Record<string, string>;
}

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");

/**
 * The environment of the consumer processes: the suite's Temporal server, and nothing of this repository's (no
 * `REDIS_URL` of the suite's Redis: the project has no optional peer, ioredis included).
 */
function consumerEnv(): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, ...env } = process.env;
  return {
    ...env,
    TEMPORAL_ADDRESS: inject("temporalAddress"),
    TEMPORAL_NAMESPACE: inject("temporalNamespace"),
  };
}

/** What the consumer scripts print (each some of it). */
interface ConsumerOutput {
  [key: string]: unknown;
  types: string[];
  printed: string;
  pending: number;
  toolResults: string[][];
  status: { status: string };
}

/** Runs `node script args` in the scratch project and parses the last line it prints as JSON. */
async function runConsumer(
  project: ScratchProject,
  script: string,
  args: string[] = [],
): Promise<ConsumerOutput> {
  const { stdout } = await run(process.execPath, [script, ...args], {
    cwd: project.dir,
    env: consumerEnv(),
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("the package as npm installs it (npm pack, then npm install of the tarball in a new project)", () => {
  let project: ScratchProject;
  beforeAll(async () => {
    project = await packAndInstall();
  }, 600_000);
  afterAll(() => project?.remove());

  it("ships the compiled code and what its exports name, without sources or tsx", () => {
    const installed = path.join(project.dir, "node_modules", "lite-agent-temporal");
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    const targets = Object.values(
      manifest.exports as Record<string, string | Record<string, string>>,
    ).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)));
    expect(targets.filter((target) => !existsSync(path.join(installed, target)))).toEqual([]);
    expect(targets).toContain("./dist/workflow.js");
    expect(existsSync(path.join(installed, "src"))).toBe(false);
    expect(existsSync(path.join(installed, "dist", "demo", "sandbox-seed", "sales.csv"))).toBe(true);
    expect(existsSync(path.join(project.dir, "node_modules", "tsx"))).toBe(false);
    expect(existsSync(path.join(project.dir, "node_modules", "@temporalio", "testing"))).toBe(false);
    // npm installs no optional peer, @temporalio/worker (and its native core) included: the durable runs below
    // install the worker as a user would, and go without the others.
    const peers = Object.keys(OPTIONAL_PACKAGES);
    expect(peers.filter((name) => existsSync(path.join(project.dir, "node_modules", name)))).toEqual([]);
    expect(existsSync(path.join(project.dir, "node_modules", "@temporalio", "core-bridge"))).toBe(false);
  });

  it("`npx lite-agent --help` and `--version` run the compiled CLI and exit 0", async () => {
    const { stdout } = await run("npx", ["--no-install", "lite-agent", "--help"], {
      cwd: project.dir,
      env: consumerEnv(),
      timeout: 60_000,
    });
    expect(stdout).toContain("Usage: lite-agent");
    expect(stdout).toContain("worker");
    const version = await run("npx", ["--no-install", "lite-agent", "--version"], {
      cwd: project.dir,
      env: consumerEnv(),
      timeout: 60_000,
    });
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(version.stdout).toBe(`${manifest.version}\n`);
  }, 60_000);

  it("runs the in-process agent with the scripted model of lite-agent-temporal/testing", async () => {
    const out = await runConsumer(project, "in-process.mjs");
    expect(out).toMatchObject({ text: "2 + 3 = 5", stopReason: "stop", result: "2 + 3 = 5" });
    expect(out.types).toEqual(expect.arrayContaining(["tool_use", "tool_result", "done"]));
  }, 60_000);

  it("without @temporalio/worker: in-process runs, ./client and ./storage load; a worker fails at once", async () => {
    const line = `Running a worker needs @temporalio/worker: npm install @temporalio/worker@${OPTIONAL_PACKAGES["@temporalio/worker"]}`;
    const out = await runConsumer(project, "no-worker.mjs");
    expect(out).toMatchObject({
      workerPackage: "ERR_MODULE_NOT_FOUND",
      inProcess: "hi",
      client: "function",
      storage: "function",
      createWorkerError: line,
    });
    expect(out.createWorkerMs).toBeLessThan(5_000);
    // The CLI: commands that need a worker say the same line; the others run (list reaches the suite's server).
    const cli = (args: string[]) =>
      run("npx", ["--no-install", "lite-agent", ...args], {
        cwd: project.dir,
        env: consumerEnv(),
        timeout: 60_000,
      }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    writeFileSync(path.join(project.dir, "history.json"), JSON.stringify({ events: [{}] }));
    const [worker, dev, replay, list] = await Promise.all([
      cli(["worker"]),
      cli(["dev"]),
      cli(["replay", "history.json"]),
      cli(["list", "--json"]),
    ]);
    expect(worker).toMatchObject({ code: 1, stderr: `error: ${line}\n` });
    expect(dev).toMatchObject({ code: 1, stderr: `error: ${line}\n` });
    const replaying = line.replace("Running a worker", "Replaying a session's history");
    expect(replay).toMatchObject({ code: 1, stderr: `error: ${replaying}\n` });
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
  }, 120_000);

  describe("with @temporalio/worker installed, as a durable user does", () => {
    beforeAll(async () => {
      const worker = `@temporalio/worker@${OPTIONAL_PACKAGES["@temporalio/worker"]}`;
      await npm(
        ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", worker],
        project.dir,
      );
    }, 300_000);

    // A Node that strips types itself (22.18+, 23.6+) loads the module and starts the worker instead.
    it.skipIf(Boolean((process.features as { typescript?: unknown }).typescript))(
      "the compiled CLI says how to load a TypeScript agents module when Node cannot",
      async () => {
        writeFileSync(path.join(project.dir, "agents.ts"), "export const agents: unknown[] = [];\n");
        const failure = await run(
          "npx",
          ["--no-install", "lite-agent", "worker", "--agents", "./agents.ts"],
          {
            cwd: project.dir,
            env: consumerEnv(),
            timeout: 60_000,
          },
        ).then(
          () => ({ code: 0, stderr: "" }),
          (error: { code: number; stderr: string }) => error,
        );
        expect(failure.code).toBe(2);
        expect(failure.stderr).toContain("cannot load TypeScript (./agents.ts)");
        expect(failure.stderr).toContain('NODE_OPTIONS="--import tsx"');
      },
      60_000,
    );

    it("runs a durable session: a worker bundling the installed workflows, and a client", async () => {
      const sessionId = `package-${uniqueTaskQueue("s")}`;
      const out = await runConsumer(project, "durable.mjs", [uniqueTaskQueue("package"), sessionId]);
      expect(out).toMatchObject({ text: "2 + 3 = 5", reason: "stop", toolResult: { content: "5" } });
      expect(out.types.at(-1)).toBe("done");
      expect(out.status.status).not.toBe("failed");
    }, 180_000);

    it("runs the README's 'Use it' sample, with a scripted OpenAI-compatible server for the model", async () => {
      writeFileSync(
        path.join(project.dir, "readme-sample.mjs"),
        readmeSampleModule(path.join(root, "README.md")),
      );
      const out = await runConsumer(project, "readme-harness.mjs");
      // Both runs (in-process, then durable) asked their question, had the refund approved, and ended.
      expect(out.pending).toBe(0);
      // Each run's last model request carries its answered question and its approved refund back to the model.
      const lastRequests = [out.toolResults[2], out.toolResults[5]];
      expect(lastRequests).toEqual([
        ["order 42", "refunded 42"],
        ["order 42", "refunded 42"],
      ]);
      expect(out.printed).toContain("Order 42 is refunded.");
    }, 180_000);

    it("runs the middleware and subagents guide's sample: a defineMiddleware module bundled by the worker, a child session", async () => {
      const [middleware, team] = guideModules(path.join(root, "docs/guides/middleware-and-subagents.md"));
      writeFileSync(path.join(project.dir, "house-rules.js"), middleware!);
      writeFileSync(path.join(project.dir, "team.mjs"), team!);
      const out = await runConsumer(project, "readme-team-harness.mjs");
      expect(out.pending).toBe(0);
      expect(out.printed).toContain("audit: Agent");
      expect(out.printed).toContain("Retries back off, says the researcher.");
      // The lead's requests carry the middleware's note once each; the researcher's (a session of its own) none.
      expect(out.requests).toEqual([
        { model: "gpt-4o", notes: 1 },
        { model: "gpt-4o-mini", notes: 0 },
        { model: "gpt-4o-mini", notes: 0 },
        { model: "gpt-4o", notes: 1 },
      ]);
    }, 180_000);

    it("without the optional peers, S3, Redis, MCP and tracing each fail at once, naming what to install", async () => {
      const out = await runConsumer(project, "missing-peers.mjs");
      const s3 = "S3 payload storage needs @aws-sdk/client-s3: npm install @aws-sdk/client-s3@3.1175.0";
      const redis = new MissingPackageError("Redis streaming (REDIS_URL)", ["ioredis"]).message;
      const mcp = new MissingPackageError("MCP servers (mcpServers)", ["@modelcontextprotocol/sdk"]).message;
      const tracing = new MissingPackageError("OpenTelemetry tracing", TRACING_PACKAGES).message;
      const otlp = new MissingPackageError("OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)", [
        ...TRACING_PACKAGES,
        "@opentelemetry/exporter-trace-otlp-proto",
      ]).message;
      expect(out).toEqual({
        s3Driver: s3,
        s3Storage: s3,
        redisTransport: redis,
        redisEnv: redis,
        redisClient: redis,
        mcpInProcess: mcp,
        mcpWorker: mcp,
        tracing,
        tracingFromEnv: otlp,
        workerTracingFromEnv: otlp,
      });
    }, 60_000);

    it("runs the MCP tools guide's sample: server-filesystem started by npx, in process and on the worker", async () => {
      const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageManifest)
        .devDependencies["@modelcontextprotocol/server-filesystem"];
      // The SDK as the guide says (an optional peer), and the server the sample starts.
      const sdk = `@modelcontextprotocol/sdk@${OPTIONAL_PACKAGES["@modelcontextprotocol/sdk"]}`;
      const server = `@modelcontextprotocol/server-filesystem@${version}`;
      await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", sdk, server], project.dir);
      const [notes] = guideModules(path.join(root, "docs/guides/mcp-tools.md"));
      writeFileSync(path.join(project.dir, "notes.mjs"), notes!);
      const out = await runConsumer(project, "readme-mcp-harness.mjs");
      expect(out.pending).toBe(0);
      expect(out.toolNames).toEqual(["fs__list_directory", "fs__read_text_file", "fs__write_file"]);
      // The in-process run's listing shows the notes; the durable run read them.
      expect(out.toolResults[1]).toEqual([expect.stringContaining("[FILE] notes.txt")]);
      expect(out.toolResults[3]).toEqual(["Buy milk. Call Ada."]);
      expect(out.printed).toContain("Milk, and a call to Ada.");
    }, 240_000);

    it("type-checks a TypeScript consumer of every entry point (the exports' types conditions)", async () => {
      const source = [
        'import { createAgent, defineAgent, nativeCodec, openaiProvider, type AgentEvent } from "lite-agent-temporal";',
        'import { permission, policy, type Middleware } from "lite-agent-temporal/workflow";',
        'import { createWorker } from "lite-agent-temporal/worker";',
        'import { AgentClient } from "lite-agent-temporal/client";',
        'import { FilesystemStorageDriver } from "lite-agent-temporal/storage";',
        'import { scriptedProvider } from "lite-agent-temporal/testing";',
        "const middleware: Middleware[] = [permission(policy({ ask: ['refund'] }))];",
        "const agent = createAgent({ model: scriptedProvider([{ text: 'hi' }]), codec: nativeCodec(), use: middleware });",
        "const definition = defineAgent({ name: 'a', model: 'm' });",
        "const events: AgentEvent[] = [];",
        "export { createAgent, openaiProvider, createWorker, AgentClient, FilesystemStorageDriver, agent, definition, events };",
        // A wrong use must fail, or this test proves nothing.
        "// @ts-expect-error: a definition needs a model",
        "defineAgent({ name: 'b' });",
      ].join("\n");
      writeFileSync(path.join(project.dir, "consumer.ts"), source);
      const options = [
        "--noEmit",
        "--strict",
        "--skipLibCheck",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
      ];
      const result = await run(process.execPath, [tsc, ...options, "--target", "es2022", "consumer.ts"], {
        cwd: project.dir,
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
      expect(result.stdout).toBe("");
    }, 120_000);
  });
});
