import { randomUUID } from "node:crypto";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection } from "@temporalio/worker";
import { AgentClient } from "../../../src/client.js";
import { temporalDeltaTransport } from "../../../src/stream/delta-transport.js";
import { withPayloadStorage } from "../../../src/storage/payload-storage.js";
import { createWorker } from "../../../src/worker.js";
import { replayPayloadStorage } from "../history-files.js";
import { createRecorderKit } from "./recorder-kit.js";

/**
 * Runs a worker for the kit's agents (and one without live output for its quiet agents) while `body` plays the
 * scenarios, then shuts everything down. The workers (one Temporal worker per agent, on `<taskQueue>.<agent>`) and
 * the client share one external payload storage:
 * the filesystem driver on `payloadDir`, with the default threshold, so only payloads of 128 KiB and more (the
 * stored-payload scenario's) leave the history, and never into the environment's storage folder.
 */
export async function withRecordingWorker<T>(
  endpoint: { address: string; namespace: string },
  payloadDir: string,
  body: (client: AgentClient, kit: ReturnType<typeof createRecorderKit>) => Promise<T>,
): Promise<T> {
  const kit = createRecorderKit();
  const taskQueue = `replay-recorder-${randomUUID().slice(0, 8)}`;
  const storage = replayPayloadStorage(payloadDir);
  const workerConnection = await NativeConnection.connect({ address: endpoint.address });
  const worker = await createWorker({
    agents: kit.agents,
    providers: kit.providers,
    taskQueue,
    connection: workerConnection,
    namespace: endpoint.namespace,
    storage,
    // Live output through the session (the workflow's own transport), whatever REDIS_URL says.
    deltas: temporalDeltaTransport(),
  });
  // The same base queue without live output: its agents' sessions show what a quiet worker's runs record.
  const quietWorker = await createWorker({
    agents: kit.quietAgents,
    providers: kit.providers,
    taskQueue,
    connection: workerConnection,
    namespace: endpoint.namespace,
    storage,
    deltas: false,
  });
  const running = Promise.all([worker.run(), quietWorker.run()]);
  const connection = await Connection.connect({ address: endpoint.address });
  try {
    return await body(
      new AgentClient(
        new Client({
          connection,
          namespace: endpoint.namespace,
          dataConverter: withPayloadStorage(undefined, storage),
        }),
        { taskQueue, deltas: "temporal" },
      ),
      kit,
    );
  } finally {
    worker.shutdown();
    quietWorker.shutdown();
    await running;
    await connection.close();
    await workerConnection.close();
  }
}
