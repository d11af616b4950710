import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, type LogEntry, NativeConnection, Runtime, type Worker } from "@temporalio/worker";
import { ensureTemporal, type TemporalEndpoint } from "../src/dev-server/index.js";

/** The Temporal server and connections the durable benchmarks share (one server per `npm run bench`). */
export interface DurableBenchEnv {
  endpoint: TemporalEndpoint;
  /** For workers. */
  connection: NativeConnection;
  /** For starting workflows and reading histories. */
  client: Client;
  /** Closes the connections and stops the dev server if this process started it. */
  close(): Promise<void>;
}

/** A Temporal worker, or the per-agent workers of `createWorker`. */
export type RunnableWorker = Pick<Worker, "run" | "shutdown" | "getState">;

/** A worker running in the background; `stop()` shuts it down and waits for it. */
export interface RunningWorker {
  worker: RunnableWorker;
  stop(): Promise<void>;
}

/** Expected at the end of the history benchmark, which terminates sessions while a model call waits. */
const EXPECTED_WARNINGS = [/^Activity not found on completion/];

function printLog(entry: LogEntry): void {
  if (EXPECTED_WARNINGS.some((pattern) => pattern.test(entry.message))) return;
  const meta = entry.meta && Object.keys(entry.meta).length > 0 ? ` ${JSON.stringify(entry.meta)}` : "";
  console.error(`[${entry.level}] ${entry.message}${meta}`);
}

/**
 * Connects to the server `TEMPORAL_ADDRESS` names, or starts a dev server for this process (in memory, no UI).
 * Worker logs (the SDK's and its native core's) are shown from WARN up, so the tables stay readable.
 */
export async function openDurableBenchEnv(): Promise<DurableBenchEnv> {
  installQuietRuntime();
  const endpoint = await ensureTemporal({ headless: true, log: (line) => console.error(`bench: ${line}`) });
  const connection = await NativeConnection.connect({ address: endpoint.address });
  // The SDK's own default sets `max_receive_message_length`, which grpc-js ignores (its key has a `grpc.` prefix),
  // so a history page over 4 MB (inline requests) would not be received.
  const channelArgs = { "grpc.max_receive_message_length": 256 * 1024 * 1024 };
  const clientConnection = await Connection.connect({ address: endpoint.address, channelArgs });
  const client = new Client({ connection: clientConnection, namespace: endpoint.namespace });
  return {
    endpoint,
    connection,
    client,
    async close() {
      await clientConnection.close();
      await connection.close();
      await endpoint.stop();
    },
  };
}

/** Installs this process's Temporal runtime with worker logs (the SDK's and its native core's) from WARN up. */
export function installQuietRuntime(): void {
  Runtime.install({
    logger: new DefaultLogger("WARN", printLog),
    telemetryOptions: { logging: { filter: { core: "WARN", other: "WARN" }, forward: {} } },
  });
}

/** Runs a created worker in the background. */
export function runWorker(worker: RunnableWorker): RunningWorker {
  const running = worker.run();
  return {
    worker,
    async stop() {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
    },
  };
}
