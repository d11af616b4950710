import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withPayloadStorage } from "../../src/storage/payload-storage.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { replayPayloadStorage } from "./history-files.js";
import { RECORDER_MIDDLEWARE_MODULES } from "./recorder/recorder-kit.js";
import { recordScenario, type RecordedScenario } from "./recorder/record-scenario.js";
import { withRecordingWorker } from "./recorder/recording-worker.js";
import { SCENARIOS } from "./scenario-catalog.js";

/**
 * The scenarios whose later executions start a run in their first workflow task, and the one whose calls stream
 * live: where a live worker and a replay are most apt to take one workflow task's events at different points. The
 * committed histories cannot show that for code written after them; a recording made now, replayed now, does.
 */
const RECORDED_NOW = ["continue-as-new", "mid-run-continue-as-new", "compaction", "interrupt"];

describe("histories recorded now, with this code", () => {
  const payloadDir = mkdtempSync(join(tmpdir(), "fresh-recordings-"));
  let recorded: RecordedScenario[];
  let workflowBundle: Awaited<ReturnType<typeof loadWorkflowBundle>>;
  beforeAll(async () => {
    const endpoint = { address: inject("temporalAddress"), namespace: inject("temporalNamespace") };
    // One worker for all of them: starting one costs more than a scenario.
    recorded = await withRecordingWorker(endpoint, payloadDir, async (client, kit) => {
      const done: RecordedScenario[] = [];
      for (const name of RECORDED_NOW) {
        const spec = SCENARIOS.find((candidate) => candidate.name === name)!;
        done.push(await recordScenario(spec, client, kit.gates));
      }
      return done;
    });
    workflowBundle = await loadWorkflowBundle({ modules: RECORDER_MIDDLEWARE_MODULES });
  }, 180_000);
  afterAll(() => rmSync(payloadDir, { recursive: true, force: true }));

  it.each(RECORDED_NOW)("%s: every execution of a fresh recording replays", async (name) => {
    const { spec, histories, sessionId } = recorded.find((scenario) => scenario.spec.name === name)!;
    expect(histories).toHaveLength(spec.executions);
    const dataConverter = withPayloadStorage(undefined, replayPayloadStorage(payloadDir));
    for (const history of histories) {
      await expect(
        Worker.runReplayHistory({ workflowBundle, dataConverter }, history, sessionId),
      ).resolves.toBeUndefined();
    }
  });
});
