import path from "node:path";
import { Option, type Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface WorkerOptions {
  agents?: string;
  cacheDir: string;
  deploymentName?: string;
  buildId?: string;
}

async function worker(scope: CliScope, options: WorkerOptions): Promise<number> {
  // Without @temporalio/worker (an optional peer), the one line naming the npm install to run, before anything starts.
  (await import("../../runtime/temporal-worker.js")).temporalWorker();
  const [
    { demoAgentSet, importAgentSet },
    { serveWorker, serverInterrupts },
    { loadConnectionConfig },
    { deploymentVersion },
    { usageError },
  ] = await Promise.all([
    import("./agent-set.js"),
    import("./serve-worker.js"),
    import("../../runtime/connection-config.js"),
    import("../../worker/worker-deployment.js"),
    import("../cli-error.js"),
  ]);
  let deployment;
  try {
    deployment = deploymentVersion(options.deploymentName, options.buildId);
  } catch (error) {
    throw usageError((error as Error).message);
  }
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
      { address, namespace: config.namespace, taskQueue, agentSet, deployment: deployment ?? false },
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
    .addOption(
      new Option(
        "--deployment-name <name>",
        "worker deployment this worker belongs to (with --build-id: sessions are pinned to its build)",
      ).env("TEMPORAL_DEPLOYMENT_NAME"),
    )
    .addOption(
      new Option("--build-id <id>", "this worker's build in its deployment").env("TEMPORAL_WORKER_BUILD_ID"),
    )
    .action(commandAction<[], WorkerOptions>(runtime, (scope, _args, options) => worker(scope, options)));
}
