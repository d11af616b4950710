import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import type { NativeConnectionOptions } from "@temporalio/worker";
import { AgentClient } from "../client.js";
import type { AgentDefinition } from "../define-agent.js";
import { ensureTemporal, startDevServer } from "../dev-server/index.js";
import { loadConnectionConfig } from "../runtime/connection-config.js";
import { temporalWorker } from "../runtime/temporal-worker.js";
import { createWorker } from "../worker.js";
import { withPayloadStorage } from "../storage/payload-storage.js";
import { withPayloadEncryption } from "../encryption/payload-encryption.js";
import type { DemoModel } from "./demo-model.js";
import type { DemoOptions } from "./demo-options.js";

/** Where the demo's Temporal server is, and whether the demo started it. */
export interface DemoServer {
  address: string;
  namespace: string;
  uiUrl: string | undefined;
  /** Process group of the dev server the demo started; undefined for an external server. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The server, worker and client of one demo process. */
export interface DemoRuntime {
  server: DemoServer;
  client: AgentClient;
  /** Settles when the worker stops; a rejection means the worker failed. */
  workerStopped: Promise<void>;
  /** Stops the worker and closes both connections (the server is stopped separately). Idempotent. */
  stop(): Promise<void>;
}

/** `TEMPORAL_ADDRESS` → that server; otherwise the embedded dev server with its SQLite file in the cache. */
export async function startDemoServer(
  options: DemoOptions,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<DemoServer> {
  if (env.TEMPORAL_ADDRESS) {
    const endpoint = await ensureTemporal({ env, log });
    return {
      address: endpoint.address,
      namespace: endpoint.namespace,
      uiUrl: undefined,
      pid: undefined,
      stop: endpoint.stop,
    };
  }
  mkdirSync(path.dirname(options.dbFile), { recursive: true });
  log(`Starting the embedded Temporal dev server (state in ${options.dbFile})…`);
  const server = await startDevServer({ dbFile: options.dbFile, log: serverLog(log) });
  log(
    `Temporal dev server started: pid ${server.pid}, address ${server.address}, UI ${server.uiUrl ?? "none"}`,
  );
  return {
    address: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl,
    pid: server.pid,
    stop: server.stop,
  };
}

/**
 * Keeps the dev server's own output out of the way (its start banner repeats what the demo prints) unless it
 * reports a problem; install progress and other notes of the dev-server module still show.
 */
function serverLog(log: (line: string) => void): (line: string) => void {
  return (line) => {
    if (line.startsWith("Temporal dev server ready at")) return;
    if (!line.startsWith("[temporal]") || /error|fatal|panic|warn/i.test(line)) log(line);
  };
}

/** An external server gets the environment's TLS and API key settings; the local dev server needs none. */
function connectionOptions(server: DemoServer): NativeConnectionOptions {
  if (server.pid !== undefined) return { address: server.address };
  return loadConnectionConfig({ address: server.address, namespace: server.namespace }).connectionOptions;
}

/** Connects a worker for `agent` and a client to `server`. On failure, what was opened is closed again. */
export async function startDemoRuntime(
  server: DemoServer,
  agent: AgentDefinition,
  model: DemoModel,
  taskQueue: string,
): Promise<DemoRuntime> {
  const options = connectionOptions(server);
  const workerConnection = await temporalWorker().NativeConnection.connect(options);
  let clientConnection: Connection | undefined;
  try {
    const worker = await createWorker({
      agents: [agent],
      providers: { [model.id]: model.provider },
      taskQueue,
      connection: workerConnection,
      namespace: server.namespace,
    });
    clientConnection = await Connection.connect(options);
    const client = new AgentClient(
      // The worker's storage and encryption settings (the environment's: large payloads in .cache/temporal/payloads
      // by default; encryption off unless LITE_AGENT_ENCRYPTION_KEYS or _KEY_FILE is set).
      new Client({
        connection: clientConnection,
        namespace: server.namespace,
        dataConverter: withPayloadStorage(withPayloadEncryption(undefined, undefined), undefined),
      }),
      { taskQueue },
    );
    const workerStopped = worker.run();
    const connection = clientConnection;
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        if (worker.getState() === "RUNNING") worker.shutdown();
        await workerStopped.catch(() => undefined);
        await Promise.allSettled([connection.close(), workerConnection.close()]);
      })());
    return { server, client, workerStopped, stop };
  } catch (error) {
    await Promise.allSettled([clientConnection?.close(), workerConnection.close()]);
    throw error;
  }
}
