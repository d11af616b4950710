import { DefaultLogger, Runtime } from "@temporalio/worker";
import { beforeAll, describe, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { replayAtEveryCut, workflowTaskCount, workflowTaskCuts } from "../support/replay-at-every-cut.js";
import { recordFirstModelCallAsTool } from "./alter-history.js";
import { eventsOf, scheduledActivities } from "./history-events.js";
import { loadHistoryFile, replayPayloadStorage } from "./history-files.js";

// The replay that fails on purpose makes the worker log the nondeterminism; the assertions are what matter here.
Runtime.install({
  logger: new DefaultLogger("ERROR"),
  telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } },
});

// test/e2e/every-history-replays.test.ts and the chaos test replay what the tests wrote with this: it must pass a
// history that replays and name where one that does not first fails.
describe("replay at every workflow task cut", () => {
  let workflowBundle: Awaited<ReturnType<typeof loadWorkflowBundle>>;
  const dataConverter = { externalStorage: replayPayloadStorage() };
  beforeAll(async () => {
    workflowBundle = await loadWorkflowBundle();
  });

  it("cuts a history after each WorkflowTaskStarted, then takes it whole; at most maxCuts, first and last kept", () => {
    const { history } = loadHistoryFile("tool-loop.json");
    const started = eventsOf(history).filter((event) => event.workflowTaskStartedEventAttributes);
    const cuts = workflowTaskCuts(history);
    expect(cuts.map((cut) => cut.events.at(-1))).toEqual([...started, eventsOf(history).at(-1)]);
    expect(workflowTaskCount(history)).toBe(started.length);
    expect(cuts.at(-1)!.label).toBe("the whole history");
    const three = workflowTaskCuts(history, 3);
    expect(three.map((cut) => cut.events.at(-1))).toEqual([
      started[0],
      started[Math.round((started.length - 1) / 2)],
      started.at(-1),
      eventsOf(history).at(-1),
    ]);
  });

  it("a phase shifts the cuts between the first and the last, so a chain's executions take different ones", () => {
    const { history } = loadHistoryFile("tool-loop.json");
    const startedIds = eventsOf(history)
      .filter((event) => event.workflowTaskStartedEventAttributes)
      .map((event) => String(event.eventId));
    expect(startedIds.length).toBeGreaterThan(6);
    const cutIds = (phase: number) =>
      workflowTaskCuts(history, 4, phase)
        .slice(0, -1)
        .map((cut) => String(cut.events.at(-1)!.eventId));
    const [unshifted, shifted] = [cutIds(0), cutIds(0.5)];
    expect([unshifted[0], unshifted.at(-1)]).toEqual([startedIds[0], startedIds.at(-1)]);
    expect([shifted[0], shifted.at(-1)]).toEqual([startedIds[0], startedIds.at(-1)]);
    expect(shifted).toHaveLength(4);
    expect(shifted.slice(1, -1).some((id) => unshifted.includes(id))).toBe(false);
  });

  it("a recorded history replays at every cut", async () => {
    const { history, workflowId } = loadHistoryFile("tool-loop.json");
    const failures = await replayAtEveryCut([{ workflowId, runId: "r1", history }], {
      workflowBundle,
      dataConverter,
    });
    expect(failures).toEqual([]);
  });

  it("an altered history fails first at the task after the change, named with its workflow and run", async () => {
    const { history, workflowId } = loadHistoryFile("tool-loop.json");
    const altered = recordFirstModelCallAsTool(history);
    const changedAt = Number(String(scheduledActivities(altered, "executeTool")[0]!.eventId));
    const firstTaskAfter = eventsOf(altered).find(
      (event) => event.workflowTaskStartedEventAttributes && Number(String(event.eventId)) > changedAt,
    )!;
    const failures = await replayAtEveryCut(
      [
        { workflowId, runId: "altered", history: altered },
        { workflowId, runId: "intact", history: loadHistoryFile("tool-loop.json").history },
      ],
      { workflowBundle, dataConverter },
    );
    expect(failures).toEqual([
      {
        workflowId,
        runId: "altered",
        cut: expect.stringMatching(
          new RegExp(`^event ${String(firstTaskAfter.eventId)} \\(workflow task \\d+ started\\)$`),
        ),
        error: expect.stringMatching(/nondeterminism/i),
      },
    ]);
  });
});
