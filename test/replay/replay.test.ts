import { DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import { DeterminismViolationError } from "@temporalio/workflow";
import { beforeAll, describe, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/runtime/workflow-bundle.js";
import { INLINE_REQUEST_LIMIT } from "../../src/workflows/durable-model.js";
import { recordFirstModelCallAsTool } from "./alter-history.js";
import { scheduledActivities } from "./history-events.js";
import { historyFileName, listHistoryFolder, loadHistoryFile } from "./history-files.js";
import { SCENARIOS } from "./scenario-catalog.js";

// The replays that fail on purpose make the worker log the nondeterminism; the assertions are what matter here.
Runtime.install({
  logger: new DefaultLogger("ERROR"),
  telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } },
});

/** Listed once, when the tests are collected: every file in the folder becomes its own test. */
const folder = listHistoryFolder();
const historyFiles = folder.filter((file) => file.endsWith(".json"));
const replayed = new Set<string>();

describe("replay of the recorded histories", () => {
  let workflowBundle: Awaited<ReturnType<typeof loadWorkflowBundle>>;
  beforeAll(async () => {
    workflowBundle = await loadWorkflowBundle();
  });

  it.each(historyFiles)("%s replays without a determinism error", async (file) => {
    const { history, workflowId } = loadHistoryFile(file);
    await expect(Worker.runReplayHistory({ workflowBundle }, history, workflowId)).resolves.toBeUndefined();
    replayed.add(file);
  });

  it.each(historyFiles)(
    "%s with its first model call recorded as a tool call fails with a DeterminismViolationError",
    async (file) => {
      const { history, workflowId } = loadHistoryFile(file);
      const replay = Worker.runReplayHistory(
        { workflowBundle },
        recordFirstModelCallAsTool(history),
        workflowId,
      );
      const error = await replay.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(DeterminismViolationError);
      expect((error as Error).name).toBe("DeterminismViolationError");
      expect((error as Error).message).toMatch(/nondeterminism/i);
    },
  );
});

describe("the histories folder", () => {
  it("is not empty", () => {
    expect(historyFiles.length).toBeGreaterThan(0);
  });

  it("holds only .json histories, and every one of them was replayed above", () => {
    expect(folder.filter((file) => !file.endsWith(".json"))).toEqual([]);
    expect([...replayed].sort()).toEqual(historyFiles);
  });

  it("holds every execution of every scenario the recorder plays, each showing its branch", () => {
    for (const spec of SCENARIOS) {
      const files = Array.from({ length: spec.executions }, (_, index) =>
        historyFileName(spec.name, index, spec.executions),
      );
      expect(historyFiles, `${spec.name}: ${spec.shows}`).toEqual(expect.arrayContaining(files));
      expect(
        spec.exercised(files.map((file) => loadHistoryFile(file).history)),
        `${spec.name} shows ${spec.shows}`,
      ).toBe(true);
    }
  });

  it("keeps callModel inputs small: a request travels inline only up to the limit", () => {
    for (const file of historyFiles) {
      for (const event of scheduledActivities(loadHistoryFile(file).history, "callModel")) {
        const payload = event.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
        const data = Buffer.from(payload?.data ?? new Uint8Array()).toString("utf8");
        expect(JSON.parse(data) as Record<string, unknown>, file).toHaveProperty("requestKey");
        expect(data.length, file).toBeLessThanOrEqual(INLINE_REQUEST_LIMIT + 1024);
      }
    }
  });
});
