import { NativeConnection, Worker, type WorkerOptions } from "@temporalio/worker";
import { AgentRegistry, createActivities, type ProviderMap } from "./activities/index.js";
import type { AgentDefinition } from "./define-agent.js";
import { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "./runtime/connection-config.js";
import { loadWorkflowBundle } from "./runtime/workflow-bundle.js";
import { deltaTransportFromEnv, type DeltaTransport } from "./stream/delta-transport.js";
import { withPayloadStorage, type PayloadStorageOption } from "./storage/payload-storage.js";

/** Options of `createWorker`. */
export interface CreateWorkerOptions {
  /** The agents this worker runs (their tool implementations run here). */
  agents: AgentDefinition[];
  /** Model providers by model id; `"*"` serves any model. */
  providers: ProviderMap;
  /** Default `lite-agent`. */
  taskQueue?: string;
  /** Default: a connection from the environment (TEMPORAL_ADDRESS, TLS, API key...). */
  connection?: NativeConnection;
  namespace?: string;
  /**
   * How live model output is published: the workflow stream (default), Redis Streams, or not at all.
   * Default: Redis when `REDIS_URL` is set.
   */
  deltas?: DeltaTransport | false;
  /**
   * Where payloads of 128 KiB and more go instead of the history (the SDK's external storage, claim check): an
   * `ExternalStorage` of your own, `false` for none, or by default the environment's (`LITE_AGENT_STORAGE`, default
   * the filesystem driver under `.cache/temporal/payloads`; see docs/operations.md). Clients need the same setting.
   */
  storage?: PayloadStorageOption;
  /** Extra Temporal worker options (concurrency limits, identity...). */
  workerOptions?: Partial<
    Omit<
      WorkerOptions,
      "connection" | "namespace" | "taskQueue" | "activities" | "workflowBundle" | "workflowsPath"
    >
  >;
}

/**
 * A Temporal worker that runs agent sessions: the session workflow (bundled once, cached on disk) and the
 * activities that call models and tools. `await worker.run()` until shutdown.
 * @example
 * const worker = await createWorker({ agents: [researcher], providers: { "*": openaiProvider() } });
 * await worker.run();
 */
export async function createWorker(options: CreateWorkerOptions): Promise<Worker> {
  const config = loadConnectionConfig({ namespace: options.namespace });
  const connection = options.connection ?? (await NativeConnection.connect(config.connectionOptions));
  const registry = new AgentRegistry(options.agents, options.providers);
  const transport = options.deltas === false ? undefined : (options.deltas ?? deltaTransportFromEnv());
  const worker = await Worker.create({
    ...options.workerOptions,
    connection,
    namespace: options.namespace ?? config.namespace,
    taskQueue: options.taskQueue ?? DEFAULT_TASK_QUEUE,
    workflowBundle: await loadWorkflowBundle(),
    dataConverter: withPayloadStorage(options.workerOptions?.dataConverter, options.storage),
    activities: createActivities(registry, transport),
  });
  return closeOnShutdown(worker, transport);
}

/** Releases the delta transport's connections when the worker stops running. */
function closeOnShutdown(worker: Worker, transport: DeltaTransport | undefined): Worker {
  if (!transport) return worker;
  const run = worker.run.bind(worker);
  worker.run = async () => {
    try {
      await run();
    } finally {
      await transport.close();
    }
  };
  return worker;
}

export { AgentRegistry, type ProviderMap, type ProviderEntry } from "./activities/index.js";
export { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "./runtime/connection-config.js";
export { loadWorkflowBundle } from "./runtime/workflow-bundle.js";
export {
  deltaTransportFromEnv,
  redisDeltaTransport,
  temporalDeltaTransport,
  type DeltaTransport,
} from "./stream/delta-transport.js";
