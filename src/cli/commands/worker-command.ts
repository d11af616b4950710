import path from "node:path";
import { Option, type Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface WorkerOptions {
  agents?: string;
  cacheDir: string;
}

async function worker(scope: CliScope, options: WorkerOptions): Promise<number> {
  const [{ demoAgentSet, importAgentSet }, { serveWorker, serverInterrupts }, { loadConnectionConfig }] =
    await Promise.all([
      import("../agent-set.js"),
      import("../serve-worker.js"),
      import("../../runtime/connection-config.js"),
    ]);
  const interrupts = serverInterrupts(scope);
  try {
    const cacheDir = path.resolve(scope.io.cwd, options.cacheDir);
    const agentSet = options.agents
      ? await importAgentSet(options.agents, scope.io.cwd)
      : demoAgentSet(cacheDir, scope.io.env);
    if (agentSet.notice) scope.note(scope.style.dim(agentSet.notice));
    const { address, namespace, taskQueue } = scope.globals;
    const config = loadConnectionConfig({ address, namespace });
    scope.note(
      scope.style.dim(`Connecting to Temporal at ${config.address} (namespace ${config.namespace})…`),
    );
    await serveWorker(
      scope,
      { address, namespace: config.namespace, taskQueue, agentSet },
      interrupts.signal,
    );
    return 0;
  } finally {
    interrupts.dispose();
  }
}

/** `lite-agent worker`: a worker against an existing server (TEMPORAL_ADDRESS or --address), until Ctrl-C. */
export function registerWorkerCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("worker")
    .description(
      "run a worker against an existing Temporal server (the demo agent unless --agents) until Ctrl-C",
    )
    .option(
      "--agents <module>",
      "module whose default export is { agents, providers } (default: the demo agent)",
    )
    .addOption(
      new Option("--cache-dir <dir>", "where the demo agent's sandbox lives")
        .env("LITE_AGENT_CACHE_DIR")
        .default(".cache"),
    )
    .action(commandAction<[], WorkerOptions>(runtime, (scope, _args, options) => worker(scope, options)));
}
