/**
 * Records the replay histories (test/replay/histories): starts a Temporal dev server (or uses
 * TEMPORAL_ADDRESS), a worker with scripted agents, plays every scenario of the catalog through AgentClient and
 * writes each execution's history as canonical JSON. Re-run it whenever the workflow code changes on purpose:
 * `npx tsx scripts/record-histories.ts` (`RECORD_ONLY=<names>` records only the named scenarios).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { AgentClient } from "../src/client.js";
import { ensureTemporal, type TemporalEndpoint } from "../src/dev-server/index.js";
import { temporalDeltaTransport } from "../src/stream/delta-transport.js";
import { withPayloadStorage } from "../src/storage/payload-storage.js";
import { createWorker } from "../src/worker.js";
import { replayPayloadStorage } from "../test/replay/history-files.js";
import { createRecorderKit } from "../test/replay/recorder/recorder-kit.js";
import { recordScenario, type RecordedScenario } from "../test/replay/recorder/record-scenario.js";
import { writeHistories, writePayloads } from "../test/replay/recorder/write-histories.js";
import { SCENARIOS } from "../test/replay/scenario-catalog.js";

const log = (line: string) => console.log(line);

/**
 * Runs a worker for the kit's agents (and one without live output for its quiet agents) while `body` plays the
 * scenarios, then shuts everything down. The workers (one Temporal worker per agent, on `<taskQueue>.<agent>`) and
 * the client share one external payload storage:
 * the filesystem driver on `payloadDir`, with the default threshold, so only payloads of 128 KiB and more (the
 * stored-payload scenario's) leave the history, and never into the environment's storage folder.
 */
async function withWorker<T>(
  endpoint: TemporalEndpoint,
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

async function main(): Promise<void> {
  const began = performance.now();
  Runtime.install({ logger: new DefaultLogger("WARN") });
  log(
    "note: the worker logs the provider-error scenario's failed callModel as a warning; that one is expected",
  );
  const endpoint = await ensureTemporal({ headless: true, log: (line) => console.error(line) });
  // The blobs the recording stores; those the histories reference are copied to test/replay/payloads.
  const payloadDir = mkdtempSync(join(tmpdir(), "replay-recorder-payloads-"));
  try {
    const recorded = await withWorker(endpoint, payloadDir, async (client, kit) => {
      const done: RecordedScenario[] = [];
      // RECORD_ONLY=a,b records just those scenarios (new ones), leaving the others' committed histories as they are.
      const only = process.env.RECORD_ONLY?.split(",").map((name) => name.trim());
      for (const spec of SCENARIOS.filter((candidate) => !only || only.includes(candidate.name))) {
        const started = performance.now();
        done.push(await recordScenario(spec, client, kit.gates));
        log(`recorded ${spec.name} (${spec.shows}) in ${Math.round(performance.now() - started)} ms`);
      }
      return done;
    });
    const written = writeHistories(recorded, log);
    // The payload folder is rewritten whole: only when this recording holds the scenarios that store payloads.
    const partial = process.env.RECORD_ONLY !== undefined;
    const storing = recorded.some((scenario) => scenario.spec.storesPayloads);
    const blobs = partial && !storing ? [] : writePayloads(recorded, payloadDir, log);
    log(
      `wrote ${written.length} histories and ${blobs.length} stored payloads in ` +
        `${((performance.now() - began) / 1000).toFixed(1)} s`,
    );
  } finally {
    await endpoint.stop();
    rmSync(payloadDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
