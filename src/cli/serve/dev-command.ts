import { mkdirSync } from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import type { DevServer } from "../../dev-server/index.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { CliError } from "../cli-error.js";
import { parsePort } from "../options/parse-options.js";
import { portInUse } from "./port-in-use.js";
import { serverLog } from "./server-log.js";

interface DevOptions {
  port: number;
  uiPort: number;
  dbFile?: string;
  cacheDir: string;
  headless?: boolean;
  uiCodecEndpoint?: string;
  agents?: string;
  verbose?: boolean;
}

function readyLines(server: DevServer, options: DevOptions, agentName: string | undefined): string[] {
  const addressFlag = options.port === 7233 ? "" : ` --address ${server.address}`;
  const lines = [
    `Temporal dev server: ${server.address} (namespace ${server.namespace}), state in ${options.dbFile}`,
    server.uiUrl
      ? `Temporal UI: ${server.uiUrl.replace(/\/+$/, "")}/namespaces/${encodeURIComponent(server.namespace)}/workflows  (each session is a workflow, its id the session id)`
      : "Temporal UI: none (headless)",
  ];
  if (agentName)
    lines.push(`Try: lite-agent${addressFlag} run ${agentName} "What are the total units and revenue?"`);
  return lines;
}

/**
 * A taken gRPC port usually means a server is already running there: the new one would fail to bind while
 * its readiness probe reached the old one, so say so before starting anything.
 */
async function checkPorts(options: DevOptions): Promise<void> {
  const ports: [number, string][] = [
    [options.port, "--port"],
    ...(options.headless ? [] : [[options.uiPort, "--ui-port"] as [number, string]]),
  ];
  for (const [port, flag] of ports) {
    if (!(await portInUse(port))) continue;
    const hint =
      flag === "--port"
        ? `; if it is a Temporal server, use it with --address 127.0.0.1:${port} (or 'lite-agent worker')`
        : "";
    throw new CliError(`port ${port} is already in use: choose another with ${flag}${hint}`);
  }
}

async function dev(scope: CliScope, options: DevOptions): Promise<number> {
  // Without @temporalio/worker (an optional peer), the one line naming the npm install to run, before anything starts.
  (await import("../../runtime/temporal-worker.js")).temporalWorker();
  await checkPorts(options);
  const [{ startDevServer }, { demoAgentSet, importAgentSet }, { serveWorker, serverInterrupts }] =
    await Promise.all([
      import("../../dev-server/index.js"),
      import("./agent-set.js"),
      import("./serve-worker.js"),
    ]);
  const interrupts = serverInterrupts(scope);
  const cacheDir = path.resolve(scope.io.cwd, options.cacheDir);
  const dbFile = path.resolve(
    scope.io.cwd,
    options.dbFile ?? path.join(cacheDir, "temporal", "lite-agent.db"),
  );
  let server: DevServer | undefined;
  try {
    const agentSet = options.agents
      ? await importAgentSet(options.agents, scope.io.cwd)
      : demoAgentSet(cacheDir, scope.io.env);
    if (agentSet.notice) scope.note(scope.style.dim(agentSet.notice));
    mkdirSync(path.dirname(dbFile), { recursive: true });
    scope.note(scope.style.dim(`Starting the Temporal dev server on port ${options.port}…`));
    server = await startDevServer({
      dbFile,
      port: options.port,
      ...(options.headless ? { headless: true } : { uiPort: options.uiPort }),
      ...(options.uiCodecEndpoint ? { uiCodecEndpoint: options.uiCodecEndpoint } : {}),
      ...(scope.globals.namespace ? { namespace: scope.globals.namespace } : {}),
      // Errors only, unless asked: the server then does not even produce the lines it would be told to hide.
      logLevel: options.verbose ? "info" : "error",
      log: serverLog((line) => scope.note(scope.style.dim(line)), options.verbose),
    });
    const agentName = agentSet.agents[0]?.name;
    await serveWorker(
      scope,
      {
        address: server.address,
        namespace: server.namespace,
        taskQueue: scope.globals.taskQueue,
        agentSet,
        plainConnection: true,
        readyLines: readyLines(server, { ...options, dbFile }, agentName),
      },
      interrupts.signal,
    );
    return 0;
  } finally {
    if (server) {
      await server.stop();
      scope.note("Temporal dev server stopped.");
    }
    interrupts.dispose();
  }
}

/** `lite-agent dev`: the embedded Temporal dev server (state in a file) and a worker, until Ctrl-C. */
export function registerDevCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("dev")
    .description("run a local Temporal dev server and a worker (the demo agent unless --agents) until Ctrl-C")
    .addOption(new Option("--port <port>", "gRPC port of the server").argParser(parsePort).default(7233))
    .addOption(new Option("--ui-port <port>", "port of the Temporal UI").argParser(parsePort).default(8233))
    .option("--headless", "no Temporal UI")
    .option(
      "--ui-codec-endpoint <url>",
      "the codec server the UI decrypts payloads with (see lite-agent codec-server)",
    )
    .option(
      "--db-file <file>",
      "SQLite file that keeps the server's state (default <cache-dir>/temporal/lite-agent.db)",
    )
    .addOption(
      new Option("--cache-dir <dir>", "where the CLI keeps its files")
        .env("LITE_AGENT_CACHE_DIR")
        .default(".cache"),
    )
    .option(
      "--agents <module>",
      "module whose default export is { agents, providers } (default: the demo agent)",
    )
    .option("-v, --verbose", "show the Temporal server's own log (default: only its errors)")
    .action(commandAction<[], DevOptions>(runtime, (scope, _args, options) => dev(scope, options)));
}
