/**
 * Records the replay histories (test/replay/histories): starts a Temporal dev server (or uses
 * TEMPORAL_ADDRESS), a worker with scripted agents, plays every scenario of the catalog through AgentClient and
 * writes each execution's history as canonical JSON. Re-run it whenever the workflow code changes on purpose:
 * `npx tsx scripts/record-histories.ts` (`RECORD_ONLY=<names>` records only the named scenarios).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultLogger, Runtime } from "@temporalio/worker";
import { ensureTemporal } from "../src/dev-server/index.js";
import { recordScenario, type RecordedScenario } from "../test/replay/recorder/record-scenario.js";
import { withRecordingWorker } from "../test/replay/recorder/recording-worker.js";
import { writeHistories, writePayloads } from "../test/replay/recorder/write-histories.js";
import { SCENARIOS } from "../test/replay/scenario-catalog.js";

const log = (line: string) => console.log(line);

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
    const recorded = await withRecordingWorker(endpoint, payloadDir, async (client, kit) => {
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
