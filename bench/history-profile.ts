import { tsToMs } from "@temporalio/common/lib/time.js";
import proto, { type temporal as protoTypes } from "@temporalio/proto";

const { temporal } = proto;

/** One event of a workflow history, as `fetchHistory()` returns it. */
export type HistoryEvent = protoTypes.api.history.v1.IHistoryEvent;

const { EventType } = temporal.api.enums.v1;

/** Where the time of a workflow execution went, summed over its events (ms), from the history's timestamps. */
export interface TimeBreakdown {
  /** First event to last. */
  wallMs: number;
  /** Activity scheduled → picked up by a worker. */
  activityQueueMs: number;
  /** Activity picked up → completed, by activity type. */
  activityRunMs: Record<string, number>;
  /** Workflow task scheduled → picked up by a worker. */
  workflowTaskQueueMs: number;
  /** Workflow task picked up → completed (the workflow code, the SDK and the round trip). */
  workflowTaskRunMs: number;
}

/** Counts, sizes and timings of one workflow execution's history. */
export interface HistoryProfile {
  events: number;
  /** Sum of the protobuf-encoded sizes of the events (`HistoryEvent.encode(event).finish().length`). */
  bytes: number;
  workflowTasks: number;
  /** Events and bytes by event type (`ACTIVITY_TASK_SCHEDULED`...). */
  byType: Record<string, { count: number; bytes: number }>;
  time: TimeBreakdown;
}

/** The protobuf-encoded size of one history event, in bytes. */
export function eventBytes(event: HistoryEvent): number {
  return temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
}

/** The event's type without the `EVENT_TYPE_` prefix. */
export function eventTypeName(event: HistoryEvent): string {
  return (EventType[event.eventType ?? 0] ?? "UNKNOWN").replace(/^EVENT_TYPE_/, "");
}

/** The activity type of an `ACTIVITY_TASK_SCHEDULED` event, else undefined. */
export function scheduledActivityType(event: HistoryEvent): string | undefined {
  return event.activityTaskScheduledEventAttributes?.activityType?.name ?? undefined;
}

/** Profiles a history: sizes by event type and the time spent queued and running, for activities and workflow tasks. */
export function profileHistory(events: HistoryEvent[]): HistoryProfile {
  const byType: HistoryProfile["byType"] = {};
  let bytes = 0;
  for (const event of events) {
    const size = eventBytes(event);
    const entry = (byType[eventTypeName(event)] ??= { count: 0, bytes: 0 });
    entry.count++;
    entry.bytes += size;
    bytes += size;
  }
  return {
    events: events.length,
    bytes,
    workflowTasks: byType.WORKFLOW_TASK_COMPLETED?.count ?? 0,
    byType,
    time: timeBreakdown(events),
  };
}

function timeBreakdown(events: HistoryEvent[]): TimeBreakdown {
  const byId = new Map(events.map((event) => [Number(event.eventId), event]));
  const at = (id: unknown) => tsToMs(byId.get(Number(id))?.eventTime);
  const time: TimeBreakdown = {
    wallMs: 0,
    activityQueueMs: 0,
    activityRunMs: {},
    workflowTaskQueueMs: 0,
    workflowTaskRunMs: 0,
  };
  for (const event of events) {
    const now = tsToMs(event.eventTime);
    const started = event.activityTaskStartedEventAttributes;
    if (started) time.activityQueueMs += now - at(started.scheduledEventId);
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
      const type = scheduledActivityType(byId.get(Number(completed.scheduledEventId)) ?? {}) ?? "unknown";
      time.activityRunMs[type] = (time.activityRunMs[type] ?? 0) + now - at(completed.startedEventId);
    }
    const taskStarted = event.workflowTaskStartedEventAttributes;
    if (taskStarted) time.workflowTaskQueueMs += now - at(taskStarted.scheduledEventId);
    const taskCompleted = event.workflowTaskCompletedEventAttributes;
    if (taskCompleted) time.workflowTaskRunMs += now - at(taskCompleted.startedEventId);
  }
  if (events.length > 0) time.wallMs = tsToMs(events.at(-1)!.eventTime) - tsToMs(events[0]!.eventTime);
  return time;
}
