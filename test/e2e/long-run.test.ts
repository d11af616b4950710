import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { connectTestClient, startTestWorker } from "../support/test-worker.js";
import { pageReader, pageTool } from "../support/tool-loop-model.js";
import { captureWorkerLog, settledWorkerLog } from "../support/worker-log.js";

// Every warning of the worker, core included (where the SDK warns about payload sizes), kept to check.
const workerLog = captureWorkerLog();

const TURNS = 2_000;
const page = pageTool(2_048);

const longReader = defineAgent({
  name: "long-reader",
  model: "scripted",
  tools: [page],
  maxTurns: TURNS + 10,
  // Small executions, so the run continues as new several times on its way.
  durable: { continueAsNew: { maxHistoryEvents: 2_000 } },
});

describe("a run of thousands of turns", () => {
  const taskQueue = `long-${Math.random().toString(36).slice(2, 10)}`;
  let stopWorker: () => Promise<void>;
  let client: AgentClient;

  beforeAll(async () => {
    const worker = await startTestWorker({
      agents: [longReader],
      providers: { scripted: pageReader(TURNS) },
      taskQueue,
    });
    stopWorker = worker.stop;
    client = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await stopWorker?.();
  });

  it(
    `${TURNS} turns of 2 KB tool results complete in one run across continue-as-new; the client sees every event once, in order`,
    async () => {
      const sessionId = `long-${Math.random().toString(36).slice(2, 10)}`;
      const events: DurableEvent[] = [];
      const run = client.run("long-reader", "read every page", { sessionId });
      let result;
      for (;;) {
        const next = await run.next();
        if (next.done) {
          result = next.value;
          break;
        }
        events.push(next.value);
      }
      expect(result.stopReason).toBe("stop");
      expect(result.text).toBe(`read ${TURNS - 1} pages`);

      // Every durable event once, in order: offsets without gaps or repeats (live text deltas carry the offset of
      // the event before them), turns numbered 1..TURNS.
      const offsets = events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
      for (let index = 1; index < offsets.length; index++)
        expect(offsets[index]).toBe(offsets[index - 1]! + 1);
      const turns = events.filter((event) => event.type === "turn_start").map((event) => event.turn);
      expect(turns).toEqual(Array.from({ length: TURNS }, (_, index) => index + 1));
      expect(events.filter((event) => event.type === "tool_result")).toHaveLength(TURNS - 1);
      expect(events.filter((event) => event.type === "done")).toHaveLength(1);

      // The run went on in several executions, each with a bounded history.
      const executions: number[] = [];
      for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` })) {
        executions.push(info.historyLength ?? 0);
      }
      expect(executions.length).toBeGreaterThan(3);
      for (const length of executions) expect(length).toBeLessThan(3_000);

      const status = await client.session(sessionId).describe();
      expect(status.turns).toBe(TURNS);
      expect(status.runsCompleted).toBe(1);
      expect((await settledWorkerLog(workerLog)).filter((line) => /TMPRL1103|payload/i.test(line))).toEqual(
        [],
      );
    },
    25 * 60_000,
  );
});
