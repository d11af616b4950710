import type { LogLevel, NativeConnection, RuntimeOptions } from "@temporalio/worker";
import { installMetricsRuntime, metricsAddressFromEnv } from "../../telemetry/metrics-runtime.js";
import { handleInterrupts } from "../../terminal/interrupts.js";
import { workerLogLine } from "../../terminal/worker-log-line.js";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { loadConnectionConfig } from "../../runtime/connection-config.js";
import { RUNNING_A_WORKER, temporalWorker } from "../../runtime/temporal-worker.js";
import type { WorkerDeploymentVersion } from "@temporalio/common";
import { createWorker, type AgentWorker } from "../../worker.js";
import type { AgentSet } from "./agent-set.js";
import { CliError } from "../cli-error.js";
import type { CliScope } from "../cli-scope.js";

/** Where the worker connects and what it serves. */
export interface ServeWorkerOptions {
  address: string | undefined;
  namespace: string | undefined;
  taskQueue: string;
  agentSet: AgentSet;
  /** The local dev server needs no TLS or API key, whatever the environment says. */
  plainConnection?: boolean;
  /** The worker's deployment version, or `false` for an unversioned worker. */
  deployment?: WorkerDeploymentVersion | false;
  /** Printed once the worker polls (how to use it). */
  readyLines?: string[];
}

let runtimeInstalled = false;

/**
 * Worker state changes would drown what matters: only `level` and worse show, as one short line each, the
 * native core's logs included. Signals are ours to handle. For a worker (`serveMetrics`) with
 * `LITE_AGENT_METRICS_PORT` set, the runtime also serves Temporal's and the agents' metrics there (Prometheus).
 * Without `@temporalio/worker`, fails at once with the `npm install` that `feature` (what the command does) needs.
 */
export function installQuietRuntime(
  write: (line: string) => void,
  level: LogLevel = "WARN",
  serveMetrics = false,
  feature = RUNNING_A_WORKER,
): void {
  const { DefaultLogger, makeTelemetryFilterString, Runtime } = temporalWorker(feature);
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const options: RuntimeOptions = {
    logger: new DefaultLogger(level, (entry) => write(`${workerLogLine(entry)}\n`)),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: level }), forward: {} } },
    shutdownSignals: [],
  };
  const metrics = serveMetrics ? metricsAddressFromEnv() : undefined;
  if (metrics === undefined) Runtime.install(options);
  else installMetricsRuntime(metrics, options);
}

async function connectWorker(options: ServeWorkerOptions): Promise<NativeConnection> {
  const config = loadConnectionConfig({ address: options.address, namespace: options.namespace });
  const connectionOptions = options.plainConnection ? { address: config.address } : config.connectionOptions;
  try {
    return await temporalWorker().NativeConnection.connect(connectionOptions);
  } catch (error) {
    throw new CliError(
      `cannot reach the Temporal server at ${config.address}: ${errorMessage(error)}. Start one with 'lite-agent dev', or pass --address.`,
    );
  }
}

/**
 * Runs a worker for the agent set until Ctrl-C (or SIGTERM), then shuts it down cleanly. A second Ctrl-C quits
 * at once. Resolves when the worker has stopped; rejects when it fails.
 */
export async function serveWorker(
  scope: CliScope,
  options: ServeWorkerOptions,
  interrupt: AbortSignal,
): Promise<void> {
  installQuietRuntime(scope.io.stderr, "WARN", true);
  const connection = await connectWorker(options);
  let worker: AgentWorker | undefined;
  try {
    const { agentSet, taskQueue } = options;
    worker = await createWorker({
      ...agentSet,
      taskQueue,
      connection,
      namespace: options.namespace ?? loadConnectionConfig().namespace,
      ...(options.deployment !== undefined ? { deployment: options.deployment } : {}),
    });
    const running = worker.run();
    const names = agentSet.agents.map((agent) => agent.name).join(", ");
    const queues = Object.values(worker.taskQueues).map((queue) => `'${queue}'`);
    const polling = queues.length === 1 ? `task queue ${queues[0]}` : `task queues ${queues.join(", ")}`;
    scope.io.stdout(`Worker polling ${polling} with agents: ${names}\n`);
    if (options.deployment)
      scope.io.stdout(
        `Deployment version ${options.deployment.deploymentName}:${options.deployment.buildId} (sessions pinned to it)\n`,
      );
    for (const line of options.readyLines ?? []) scope.io.stdout(`${line}\n`);
    scope.io.stdout(scope.style.dim("Press Ctrl-C to stop.\n"));
    const stop = () => worker?.getState() === "RUNNING" && worker.shutdown();
    if (interrupt.aborted) stop();
    interrupt.addEventListener("abort", stop, { once: true });
    await running;
    scope.note("Worker stopped.");
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Ctrl-C handling for the long-running commands: the first asks for a clean stop, a second quits. */
export function serverInterrupts(scope: CliScope): { signal: AbortSignal; dispose(): void } {
  const interrupts = handleInterrupts(() => undefined);
  interrupts.signal.addEventListener("abort", () => scope.note("Stopping… (Ctrl-C again to quit at once)"), {
    once: true,
  });
  return interrupts;
}
