import { randomUUID } from "node:crypto";
import { Worker } from "@temporalio/worker";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { textTurn } from "../../src/testing/builders.js";
import { taskBoundarySignal } from "../../src/contract/messages.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// A worker without the session cached (a cold worker's first task; here, a worker with no cache at all) takes a
// finished workflow task that made no command in the same activation as the next task's update, while a replay takes
// that task before the update (src/workflows/admission/update-admission.ts). The session refuses such an update, and a refused
// update leaves no event, so every attempt used to find the same history and be refused again until the client gave
// up ("start run rejected: the session took other work"). A client refused twice now sends the `taskBoundary` signal,
// whose event closes the finished task: the next attempt is admitted, and the history replays.

const taskQueue = uniqueTaskQueue("idle-task");
const agents = [defineAgent({ name: "idle", model: "idle" })];
let worker: RunningWorker;
let client: AgentClient;

beforeAll(async () => {
  worker = await startTestWorker({
    taskQueue,
    storage: false,
    agents,
    providers: { idle: fakeProvider([textTurn("ok")], { onExhausted: "repeat-last" }) },
    workerOptions: { maxCachedWorkflows: 0 },
  });
  client = await testClient(taskQueue);
});
afterAll(async () => {
  await worker?.stop();
});

/** A signal the session refuses as undecodable: a workflow task that changes its state and makes no command. */
const undecodableSteer = (sessionId: string) =>
  client.temporal.workflowService.signalWorkflowExecution({
    namespace: inject("temporalNamespace"),
    workflowExecution: { workflowId: sessionId },
    signalName: "steer",
    input: { payloads: [{ metadata: { encoding: Buffer.from("json/plain") }, data: Buffer.from("{oops") }] },
    identity: "idle-task-test",
    requestId: randomUUID(),
  });

it("a worker without a cache admits a run after a task that made no command, and the history replays", async () => {
  const sessionId = `idle-task-${randomUUID()}`;
  expect((await client.send("idle", "hello", { sessionId })).text).toBe("ok");
  for (let n = 0; n < 10; n++) await undecodableSteer(sessionId);
  await expect
    .poll(async () => (await client.session(sessionId).describe()).rejectedSignals.length, {
      timeout: 60_000,
    })
    .toBe(10);

  const next = await client.send("idle", "still there?", { sessionId });
  expect(next.stopReason).toBe("stop");
  expect(next.text).toBe("ok");

  const history = await client.session(sessionId).workflow.fetchHistory();
  const signals = (history.events ?? []).map(
    (event) => event.workflowExecutionSignaledEventAttributes?.signalName,
  );
  expect(signals.filter((name) => name === taskBoundarySignal.name).length).toBeGreaterThanOrEqual(1);
  const workflowBundle = await loadWorkflowBundle();
  await expect(Worker.runReplayHistory({ workflowBundle }, history, sessionId)).resolves.toBeUndefined();
});
