import proto, { type temporal } from "@temporalio/proto";

type History = temporal.api.history.v1.IHistory;
const EventType = proto.temporal.api.enums.v1.EventType;

/** Events that hand a workflow task something to take (a job of its activation): results, timers, signals, ... */
const INPUTS = new Set<number>([
  EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
  EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
  EventType.EVENT_TYPE_TIMER_FIRED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT,
  EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED,
  EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED,
  EventType.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED,
]);

/** A workflow task that accepted updates, with what else it took. */
export interface TaskWithUpdates {
  /** The task's WorkflowTaskStarted event id. */
  startedEventId: number;
  /** The names of the updates it accepted. */
  updates: string[];
  /** The input events it took besides them (type names), since the task before it completed. */
  inputs: string[];
}

/**
 * Every workflow task of an execution's history that accepted an update, with the other inputs it took. A task
 * that accepted an update and took anything else is the shape a replay may take in another order than the live
 * worker did (src/workflows/admission/update-admission.ts).
 */
export function tasksWithAcceptedUpdates(history: History): TaskWithUpdates[] {
  const events = history.events ?? [];
  const tasks = new Map<number, TaskWithUpdates>();
  let completed: { id: number; startedEventId: number } | undefined;
  let previousCompletedId = 0;
  for (const event of events) {
    const id = Number(event.eventId);
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      previousCompletedId = completed?.id ?? 0;
      completed = { id, startedEventId: Number(event.workflowTaskCompletedEventAttributes?.startedEventId) };
    }
    const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
    if (!name || !completed) continue;
    const task = tasks.get(completed.id) ?? {
      startedEventId: completed.startedEventId,
      updates: [],
      inputs: inputsBetween(events, previousCompletedId, completed.startedEventId),
    };
    task.updates.push(name);
    tasks.set(completed.id, task);
  }
  return [...tasks.values()];
}

function inputsBetween(
  events: temporal.api.history.v1.IHistoryEvent[],
  after: number,
  before: number,
): string[] {
  return events
    .filter((event) => Number(event.eventId) > after && Number(event.eventId) < before)
    .filter((event) => INPUTS.has(event.eventType ?? 0))
    .map((event) => EventType[event.eventType ?? 0] ?? String(event.eventType));
}

const FailedCause = proto.temporal.api.enums.v1.WorkflowTaskFailedCause;
/**
 * Causes of a failed workflow task that are Temporal's ordinary bookkeeping, not a fault of the workflow or the SDK:
 * new events arrived while the task ran (its commands are dropped, and the next task takes both), or the sticky queue
 * was reset (a worker stopped or was killed while it held the execution).
 */
const ORDINARY_CAUSES = new Set<number>([
  FailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
  FailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE,
]);

/** A workflow task that failed for another reason than Temporal's bookkeeping (nondeterminism, a worker's error). */
export interface FailedTask {
  /** The WorkflowTaskFailed event id. */
  eventId: number;
  /** The cause, without its `WORKFLOW_TASK_FAILED_CAUSE_` prefix. */
  cause: string;
  /** The failure's message, as the worker reported it. */
  message: string;
}

/**
 * The workflow tasks of an execution's history that failed other than by {@link ORDINARY_CAUSES}. Only a task's first
 * failure is recorded (the server keeps later attempts transient), so one such event can stand for many attempts.
 */
export function failedWorkflowTasks(history: History): FailedTask[] {
  return (history.events ?? []).flatMap((event) => {
    const failed = event.workflowTaskFailedEventAttributes;
    if (!failed || ORDINARY_CAUSES.has(failed.cause ?? 0)) return [];
    const cause = (FailedCause[failed.cause ?? 0] ?? String(failed.cause)).replace(
      "WORKFLOW_TASK_FAILED_CAUSE_",
      "",
    );
    return [{ eventId: Number(event.eventId), cause, message: failed.failure?.message ?? "" }];
  });
}

/** What a workflow task's commands leave in history right after its `WorkflowTaskCompleted`. */
const COMMAND_EVENTS = new Set<number>([
  EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
  EventType.EVENT_TYPE_TIMER_STARTED,
  EventType.EVENT_TYPE_TIMER_CANCELED,
  EventType.EVENT_TYPE_MARKER_RECORDED,
  EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
  EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
  EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
  EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
  EventType.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
]);

/**
 * The `WorkflowTaskCompleted` event ids of the workflow tasks that took an activity's result (and nothing else) and
 * completed with no command. In a workflow that always acts on a result (schedules the next activity, ends the
 * run), that is the SDK's core having applied the task's events ahead of it, while answering a query, so the
 * workflow code never saw the result (docs/architecture.md, "A defect of the SDK").
 */
export function resultsTakenWithNoCommand(history: History): number[] {
  const events = history.events ?? [];
  const type = (index: number) => events[index]?.eventType ?? 0;
  const found: number[] = [];
  for (let i = 0; i + 3 < events.length; i++) {
    if (
      type(i) === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED &&
      type(i + 1) === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED &&
      type(i + 2) === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED &&
      type(i + 3) === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED &&
      !COMMAND_EVENTS.has(type(i + 4))
    )
      found.push(Number(events[i + 3]!.eventId));
  }
  return found;
}
