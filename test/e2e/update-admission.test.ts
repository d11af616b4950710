import { Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { tasksWithAcceptedUpdates } from "../support/history-tasks.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// The live worker may take one workflow task in two activations (its new events, then an update that came with it)
// and record the update's acceptance after the first one's commands; a replay accepts it first and fails
// (../shared/evidence/update-after-activities-nonreplaying.json; src/workflows/admission/update-admission.ts). The session
// therefore accepts an update only into a task that holds nothing else. This test makes a task that holds both for
// certain: the task after a tool call is taken by a poller that never answers, a steer arrives meanwhile, and the
// task's next attempt carries the tool's result and the steer together.

const EventType = temporal.api.enums.v1.EventType;
const toolQueue = uniqueTaskQueue("admission-tools");
let releaseHold!: () => void;
const held = new Promise<void>((resolve) => (releaseHold = resolve));
let holdStarted!: () => void;
const holding = new Promise<void>((resolve) => (holdStarted = resolve));

const hold = defineTool({
  name: "hold",
  description: "waits until the test lets it finish",
  schema: z.object({}),
  taskQueue: toolQueue,
  execute: async () => {
    holdStarted();
    await held;
    return "held";
  },
});
let steerAccepted: () => Promise<void> = () => Promise.reject(new Error("no session yet"));
/** Returns once the session has accepted the steer: the model's next turn must see it. */
const awaitSteer = defineTool({
  name: "await_steer",
  description: "waits until the session has taken the steer",
  schema: z.object({}),
  taskQueue: toolQueue,
  execute: async () => {
    await steerAccepted();
    return "steer taken";
  },
});
const script = conversationScript([
  toolCallTurn([{ id: "h1", name: "hold", input: {} }]),
  toolCallTurn([{ id: "s1", name: "await_steer", input: {} }]),
  textTurn("done"),
]);
const agents = [defineAgent({ name: "holder", model: "holder", tools: [hold, awaitSteer] })];
const providers = { holder: script };
const running: RunningWorker[] = [];

afterAll(async () => {
  await Promise.all(running.map((worker) => worker.stop()));
});

it("an update that arrives with a tool's result is accepted in a workflow task of its own, and the history replays", async () => {
  const taskQueue = uniqueTaskQueue("admission");
  running.push(
    await startTestWorker({
      taskQueue: uniqueTaskQueue("admission-unused"),
      agents,
      providers,
      toolTaskQueues: [toolQueue],
    }),
  );
  const first = await startTestWorker({ taskQueue, agents, providers });
  const client: AgentClient = await testClient(taskQueue);
  const started = await client.start("holder", "hold on");
  steerAccepted = async () => {
    const accepted = () => acceptedUpdates(client, started.sessionId);
    while (!(await accepted()).includes("queueSteer"))
      await new Promise((resolve) => setTimeout(resolve, 100));
  };
  await holding;
  // The session's worker goes; its next workflow task goes to whoever polls the agent's queue.
  await first.stop();
  releaseHold();
  const taken = await takeWorkflowTaskAndKeepIt(client, client.taskQueueFor("holder"), started.sessionId);
  const steered = client.session(started.sessionId).steer("and mind the weather");
  // The taken task times out (the session's workflow task timeout, 10 s); its next attempt carries the steer too.
  await waitForEvent(client, started.sessionId, EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, taken);
  running.push(await startTestWorker({ taskQueue, agents, providers }));
  await steered;
  const events = [];
  for await (const event of client
    .session(started.sessionId)
    .events(started.runId, { fromOffset: started.offset }))
    events.push(event);
  expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
  // The steer was taken (it may come a turn after the tool's result it arrived with) and reached the model.
  const lastRequest = JSON.stringify(script.requests.at(-1)?.messages);
  expect(lastRequest).toContain("held");
  expect(lastRequest).toContain("and mind the weather");
  expect(lastRequest.split("and mind the weather")).toHaveLength(2);

  const history = await client.temporal.workflow.getHandle(started.sessionId).fetchHistory();
  const tasks = tasksWithAcceptedUpdates(history);
  expect(tasks.map((task) => task.updates)).toContainEqual(["queueSteer"]);
  // Every task that accepted an update took nothing else: no activity result, timer or signal came with it.
  for (const task of tasks)
    expect(task, `workflow task started at event ${task.startedEventId}`).toMatchObject({ inputs: [] });
  await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, started.sessionId);
}, 90_000);

/**
 * Polls the queue as a worker would and keeps the task it gets without ever answering it, so the server times it
 * out. Returns the task's started event id.
 */
async function takeWorkflowTaskAndKeepIt(
  client: AgentClient,
  queue: string,
  workflowId: string,
): Promise<number> {
  const connection = client.temporal.connection;
  for (;;) {
    const task = await connection.withDeadline(Date.now() + 70_000, () =>
      connection.workflowService.pollWorkflowTaskQueue({
        namespace: client.temporal.options.namespace,
        identity: "a worker that never answers",
        taskQueue: { name: queue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      }),
    );
    if (task.workflowExecution?.workflowId === workflowId) return Number(task.startedEventId);
  }
}

/** Waits until the session's history holds an event of `type` after event `after`. */
async function waitForEvent(
  client: AgentClient,
  sessionId: string,
  type: number,
  after: number,
): Promise<void> {
  for (;;) {
    const history = await client.temporal.workflow.getHandle(sessionId).fetchHistory();
    if (history.events?.some((event) => event.eventType === type && Number(event.eventId) > after)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The names of the updates the session's current execution accepted, in order. */
async function acceptedUpdates(client: AgentClient, sessionId: string): Promise<string[]> {
  const history = await client.temporal.workflow.getHandle(sessionId).fetchHistory();
  return (history.events ?? []).flatMap(
    (event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? [],
  );
}
