import { randomUUID } from "node:crypto";
import type { temporal } from "@temporalio/proto";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn } from "../../src/testing/builders.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { failedWorkflowTasks } from "../support/history-tasks.js";
import { replayAtEveryCut } from "../support/replay-at-every-cut.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// A worker that has just started takes a session's first task with the session's events since its last command: the
// core hands a finished task that made no command over again, live, with the new task's (docs/architecture.md,
// "Updates"). The update admission refuses an update that comes so; a caching worker keeps the session and admits the
// same update sent again. Here the session's last task took undecodable signals (they make no command), then its
// worker is replaced, and the next run must start, once, with a history that replays at every task boundary.

const chat = defineAgent({ name: "chat", model: "chat" });
const providers = () => ({ chat: fakeProvider([textTurn("ok")], { onExhausted: "repeat-last" }) });
const taskQueue = uniqueTaskQueue("update-after-restart");
let worker: RunningWorker | undefined;
let client: AgentClient;

beforeAll(async () => {
  worker = await startTestWorker({ taskQueue, agents: [chat], providers: providers() });
  client = await testClient(taskQueue);
});
afterAll(async () => {
  await worker?.stop();
});

/** A signal whose payload names no encoding: the session lists it as rejected and makes no command. */
function undecodableSteer(sessionId: string) {
  const payload: temporal.api.common.v1.IPayload = { metadata: {}, data: new TextEncoder().encode("{}") };
  return client.temporal.workflowService.signalWorkflowExecution({
    namespace: inject("temporalNamespace"),
    workflowExecution: { workflowId: sessionId },
    signalName: "steer",
    input: { payloads: [payload] },
    identity: "update-after-restart-test",
    requestId: randomUUID(),
  });
}

it("a new worker starts the next run of a session whose last task made no command, once, and no task fails", async () => {
  const sessionId = `update-after-restart-${randomUUID()}`;
  expect((await client.send("chat", "hello", { sessionId })).text).toBe("ok");
  for (let n = 0; n < 3; n++) await undecodableSteer(sessionId);
  await expect
    .poll(async () => (await client.session(sessionId).describe()).rejectedSignals.length, {
      timeout: 15_000,
    })
    .toBe(3);

  await worker!.stop();
  worker = await startTestWorker({ taskQueue, agents: [chat], providers: providers() });
  expect((await client.send("chat", "still there?", { sessionId })).text).toBe("ok");

  const status = await client.session(sessionId).describe();
  expect(status.runsCompleted).toBe(2);
  expect(status.messageCount).toBe(4);
  const handle = client.temporal.workflow.getHandle(sessionId);
  const history = await handle.fetchHistory();
  expect(failedWorkflowTasks(history)).toEqual([]);
  // A replay takes the signals and the update in activations of their own, where the new worker took them in one.
  const { runId } = await handle.describe();
  const recorded = [{ workflowId: sessionId, runId, history }];
  expect(await replayAtEveryCut(recorded, { workflowBundle: await loadWorkflowBundle() })).toEqual([]);
});
