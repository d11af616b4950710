import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "@temporalio/worker";
import { afterEach, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { testClient, uniqueTaskQueue } from "../support/temporal.js";
import { WorkerProcesses, killHard, waitForLine } from "../support/worker-process.js";

let workers: WorkerProcesses | undefined;
afterEach(() => workers?.killAll());

it("a worker killed mid-tool is replaced: completed tools ran once, at-most-once tools get the interrupted result, idempotent ones retry with the same key", async () => {
  const taskQueue = uniqueTaskQueue("crash");
  const sideEffects = join(mkdtempSync(join(tmpdir(), "crash-")), "side-effects.log");
  writeFileSync(sideEffects, "");
  const client = await testClient(taskQueue);
  workers = new WorkerProcesses("test/support/crash-worker.ts", {
    TASK_QUEUE: taskQueue,
    SIDE_EFFECTS: sideEffects,
  });

  const first = await workers.start("first");
  const started = await client.start("crashy", "go");
  const events: AgentEvent[] = [];
  const consuming = (async () => {
    const run = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      events.push(next.value);
    }
  })();

  await waitForLine(sideEffects, /^slow_once start$/m);
  await killHard(first);
  const second = await workers.start("second");
  await waitForLine(sideEffects, /^slow_idem start .* second$/m);
  await killHard(second);
  await workers.start("third");
  const result = await consuming;

  expect(result.stopReason).toBe("stop");
  expect(result.text).toBe("done");
  // What the workers recorded, across their crashes, is what the workflow code does on a replay from scratch.
  const history = await client.session(started.sessionId).workflow.fetchHistory();
  await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, started.sessionId);
  const lines = readFileSync(sideEffects, "utf8").trim().split("\n");
  expect(lines.filter((line) => line === "record a")).toHaveLength(1);
  expect(lines.filter((line) => line === "record b")).toHaveLength(1);
  expect(lines.filter((line) => line === "slow_once start")).toHaveLength(1);
  const idem = lines.filter((line) => line.startsWith("slow_idem start")).map((line) => line.split(" "));
  expect(idem.map((parts) => parts[3])).toEqual(["second", "third"]);
  expect(idem[0]![2]).toBeTruthy();
  expect(idem[1]![2]).toBe(idem[0]![2]);

  const results = events.flatMap((event) => (event.type === "tool_result" ? [event.result] : []));
  expect(results.find((r) => r.name === "slow_once")).toMatchObject({
    content: "Error: interrupted before completion (slow_once)",
    isError: true,
  });
  expect(results.find((r) => r.name === "slow_idem")).toMatchObject({ content: "idem done" });
  expect(events).toContainEqual(
    expect.objectContaining({ type: "tool_recovered", id: "s1", name: "slow_once", turn: 2 }),
  );
}, 120_000);
