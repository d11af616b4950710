/**
 * Records the replay histories (test/replay/histories): starts a Temporal dev server (or uses
 * TEMPORAL_ADDRESS), a worker with scripted agents, plays every scenario of the catalog through AgentClient and
 * writes each execution's history as canonical JSON. Re-run it whenever the workflow code changes on purpose:
 * `npx tsx scripts/record-histories.ts`.
 */
import { randomUUID } from "node:crypto";
import { Client, Connection } from "@temporalio/client";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { AgentClient } from "../src/client.js";
import { ensureTemporal, type TemporalEndpoint } from "../src/dev-server/index.js";
import { createWorker } from "../src/worker.js";
import { createRecorderKit } from "../test/replay/recorder/recorder-kit.js";
import { recordScenario, type RecordedScenario } from "../test/replay/recorder/record-scenario.js";
import { writeHistories } from "../test/replay/recorder/write-histories.js";
import { SCENARIOS } from "../test/replay/scenario-catalog.js";

const log = (line: string) => console.log(line);

/** Runs a worker for the kit's agents while `body` plays the scenarios, then shuts everything down. */
async function withWorker<T>(
  endpoint: TemporalEndpoint,
  body: (client: AgentClient, kit: ReturnType<typeof createRecorderKit>) => Promise<T>,
): Promise<T> {
  const kit = createRecorderKit();
  const taskQueue = `replay-recorder-${randomUUID().slice(0, 8)}`;
  const workerConnection = await NativeConnection.connect({ address: endpoint.address });
  const worker = await createWorker({
    agents: kit.agents,
    providers: kit.providers,
    taskQueue,
    connection: workerConnection,
    namespace: endpoint.namespace,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: endpoint.address });
  try {
    return await body(
      new AgentClient(new Client({ connection, namespace: endpoint.namespace }), { taskQueue }),
      kit,
    );
  } finally {
    worker.shutdown();
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
  try {
    const recorded = await withWorker(endpoint, async (client, kit) => {
      const done: RecordedScenario[] = [];
      for (const spec of SCENARIOS) {
        const started = performance.now();
        done.push(await recordScenario(spec, client, kit.gates));
        log(`recorded ${spec.name} (${spec.shows}) in ${Math.round(performance.now() - started)} ms`);
      }
      return done;
    });
    const written = writeHistories(recorded, log);
    log(`wrote ${written.length} histories in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  } finally {
    await endpoint.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
