import { fileURLToPath } from "node:url";
import { Client, Connection, WorkflowUpdateStage } from "@temporalio/client";
import { temporal } from "@temporalio/proto";
import { NativeConnection, Worker, bundleWorkflowCode } from "@temporalio/worker";
import { expect, it } from "vitest";
import { inject } from "vitest";
import { quietLogger } from "../../src/worker/workflow-bundle.js";
import { tasksWithAcceptedUpdates } from "../support/history-tasks.js";
import { temporalAddress, uniqueTaskQueue } from "../support/temporal.js";

// A minimal reproduction of the SDK behaviour behind src/workflows/admission/update-admission.ts, on a workflow of a few lines
// (test/fixtures/sdk/update-order-workflow.ts), kept so an SDK upgrade shows whether it still holds. When one workflow
// task carries both an activity's result and an update, the SDK's replayer takes them in one activation and expects
// the update's acceptance before the commands the result leads to. A live worker of the same SDK (1.23) has been
// seen to write the acceptance after them (../shared/evidence/update-after-activities-nonreplaying.json); such a
// history does not replay. The second half of this test makes that order by hand from the first half's history.

const EventType = temporal.api.enums.v1.EventType;
type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const workflowsPath = fileURLToPath(new URL("../fixtures/sdk/update-order-workflow.ts", import.meta.url));

it("SDK: an update accepted in a task with an activity's result replays only if its acceptance comes first", async () => {
  const namespace = inject("temporalNamespace");
  const taskQueue = uniqueTaskQueue("sdk-update-order");
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const connection = await Connection.connect({ address: temporalAddress() });
  const client = new Client({ connection, namespace });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstStarted!: () => void;
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  const activities = {
    async step(n: number) {
      if (n === 1) {
        firstStarted();
        await released;
      }
      return n;
    },
  };
  const activityWorker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue,
    activities,
  });
  const activitiesRunning = activityWorker.run();
  const workflowWorker = () =>
    Worker.create({ connection: nativeConnection, namespace, taskQueue, workflowBundle });
  try {
    const first = await workflowWorker();
    const firstRunning = first.run();
    const handle = await client.workflow.start("updateOrder", {
      taskQueue,
      workflowId: taskQueue,
      workflowTaskTimeout: "2s",
    });
    await started;
    first.shutdown();
    await firstRunning;
    release();
    // A poller takes the task that carries step 1's result and never answers; meanwhile the update arrives, so the
    // task's next attempt carries both.
    await connection.withDeadline(Date.now() + 60_000, () =>
      connection.workflowService.pollWorkflowTaskQueue({
        namespace,
        identity: "a worker that never answers",
        taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      }),
    );
    const update = handle.startUpdate("ping", { waitForStage: WorkflowUpdateStage.ACCEPTED });
    const second = await workflowWorker();
    const secondRunning = second.run();
    await (await update).result();
    await handle.result();
    second.shutdown();
    await secondRunning;

    const history = await handle.fetchHistory();
    const [task] = tasksWithAcceptedUpdates(history);
    expect(task).toMatchObject({ updates: ["ping"], inputs: ["EVENT_TYPE_ACTIVITY_TASK_COMPLETED"] });
    // As the SDK wrote it: the acceptance first, then the two activities the result led to. It replays.
    expect(typesAfter(history, task!.startedEventId + 1, 3)).toEqual([
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
      EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    ]);
    await Worker.runReplayHistory({ workflowBundle }, history, taskQueue);
    // As the live worker of the evidence wrote it: the acceptance after the commands. It does not replay.
    const reordered = acceptanceAfterCommands(history, task!.startedEventId + 1);
    await expect(Worker.runReplayHistory({ workflowBundle }, reordered, taskQueue)).rejects.toThrow(
      /Update machine does not handle this event/,
    );
  } finally {
    activityWorker.shutdown();
    await activitiesRunning;
    await nativeConnection.close();
    await connection.close();
  }
}, 60_000);

/** The types of the `count` events after event `after`. */
function typesAfter(history: History, after: number, count: number): number[] {
  const events = history.events ?? [];
  const index = events.findIndex((event) => Number(event.eventId) === after);
  return events.slice(index + 1, index + 1 + count).map((event) => event.eventType ?? 0);
}

/**
 * A copy of the history in which the update accepted right after the workflow task completed at event
 * `completedEventId` comes after the activities that task scheduled; event ids and every reference to them follow.
 */
function acceptanceAfterCommands(history: History, completedEventId: number): History {
  const copy = temporal.api.history.v1.History.fromObject(
    temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History),
  );
  const events = copy.events;
  const at = events.findIndex((event) => Number(event.eventId) === completedEventId) + 1;
  let end = at + 1;
  while (events[end]?.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) end++;
  const [accepted] = events.splice(at, 1);
  events.splice(end - 1, 0, accepted!);
  const renumbered = new Map<number, number>();
  events.forEach((event, index) =>
    renumbered.set(Number(event.eventId), Number(events[at - 1]!.eventId) + index - at + 1),
  );
  for (const event of events.slice(at)) renumber(event, renumbered);
  return copy;
}

/** Rewrites an event's id and every `...EventId` field in it by `ids` (ids not in it stay). */
function renumber(event: HistoryEvent, ids: Map<number, number>): void {
  const visit = (value: unknown): void => {
    if (!value || typeof value !== "object") return;
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      if (/EventId$|^eventId$/.test(key) && field !== null && field !== undefined) {
        const next = ids.get(Number(field));
        if (next !== undefined) (value as Record<string, unknown>)[key] = next;
      } else visit(field);
    }
  };
  visit(event);
}
