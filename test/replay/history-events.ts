import proto from "@temporalio/proto";
import type { History } from "./history-files.js";

/** One event of a history. */
export type HistoryEvent = NonNullable<History["events"]>[number];

/** The events of a history (none when absent). */
export function eventsOf(history: History): HistoryEvent[] {
  return history.events ?? [];
}

/** The scheduled activities of a type, in history order. */
export function scheduledActivities(history: History, type: string): HistoryEvent[] {
  return eventsOf(history).filter(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === type,
  );
}

/** An activity attempt that timed out: the activity's type and the timeout (`TIMEOUT_TYPE_HEARTBEAT`, ...). */
export interface ActivityTimeout {
  type: string;
  timeout: string;
}

/**
 * The activity attempts that timed out, in history order: the attempt before a retried one's recorded start (its
 * last failure), and the last attempt of one that failed with a timeout.
 */
export function activityTimeouts(history: History): ActivityTimeout[] {
  const events = eventsOf(history);
  const typeOf = (scheduledEventId: unknown) =>
    events.find((e) => String(e.eventId) === String(scheduledEventId))?.activityTaskScheduledEventAttributes
      ?.activityType?.name ?? "?";
  return events.flatMap((event) => {
    const retried = event.activityTaskStartedEventAttributes;
    const timedOut = event.activityTaskTimedOutEventAttributes;
    const failure = (retried?.attempt ?? 0) > 1 ? retried?.lastFailure : timedOut?.failure;
    const kind = failure?.timeoutFailureInfo?.timeoutType ?? failure?.cause?.timeoutFailureInfo?.timeoutType;
    if (!kind) return [];
    const scheduledEventId = retried?.scheduledEventId ?? timedOut?.scheduledEventId;
    return [{ type: typeOf(scheduledEventId), timeout: proto.temporal.api.enums.v1.TimeoutType[kind] }];
  });
}

/** The names of the updates the workflow accepted, in history order. */
export function acceptedUpdates(history: History): string[] {
  return eventsOf(history).flatMap((event) => {
    const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
    return name ? [name] : [];
  });
}

/** True when some event of the history has the given attributes field (e.g. `activityTaskFailedEventAttributes`). */
export function hasEvent(history: History, attributes: keyof HistoryEvent): boolean {
  return eventsOf(history).some((event) => event[attributes] != null);
}

/** The last event of a history. */
export function lastEvent(history: History): HistoryEvent | undefined {
  return eventsOf(history).at(-1);
}

/** A timer the workflow started: its id and how long it was set for, in seconds. */
export interface StartedTimer {
  timerId: string;
  seconds: number;
  /** The event id of its TimerStarted event. */
  eventId: string;
}

/** The timers the workflow started, in history order. */
export function startedTimers(history: History): StartedTimer[] {
  return eventsOf(history).flatMap((event) => {
    const started = event.timerStartedEventAttributes;
    if (!started?.timerId) return [];
    const timeout = started.startToFireTimeout;
    const seconds = Number(String(timeout?.seconds ?? 0)) + Number(timeout?.nanos ?? 0) / 1e9;
    return [{ timerId: started.timerId, seconds, eventId: String(event.eventId) }];
  });
}

/** How a timer ended: fired, cancelled by the workflow, or not at all (still running). */
export function timerEnd(history: History, timerId: string): "fired" | "canceled" | undefined {
  for (const event of eventsOf(history)) {
    if (event.timerFiredEventAttributes?.timerId === timerId) return "fired";
    if (event.timerCanceledEventAttributes?.timerId === timerId) return "canceled";
  }
  return undefined;
}

/** The event id of the first accepted update of a name, or undefined. */
export function acceptedUpdateEventId(history: History, name: string): number | undefined {
  const event = eventsOf(history).find(
    (item) => item.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === name,
  );
  return event ? Number(String(event.eventId)) : undefined;
}

/** The payload type of the SDK's external storage references (ADR 0004, "What the history shows"). */
export const STORAGE_REFERENCE_TYPE = "temporal.api.sdk.v1.ExternalStorageReference";

/** A payload of a history stored outside it: the driver and key its reference names, and the payload's size. */
export interface StoredPayloadReference {
  /** Where the reference is (event id and attributes field). */
  place: string;
  driverName: string;
  key: string;
  sizeBytes: number;
}

function collectReferences(value: unknown, place: string, into: StoredPayloadReference[]): void {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return;
  const payload = value as {
    metadata?: Record<string, Uint8Array>;
    data?: Uint8Array;
    externalPayloads?: { sizeBytes?: unknown }[];
  };
  const type = payload.metadata?.messageType;
  if (type && payload.data && Buffer.from(type).toString("utf8") === STORAGE_REFERENCE_TYPE) {
    const reference = JSON.parse(Buffer.from(payload.data).toString("utf8")) as {
      driverName?: string;
      claimData?: { key?: string };
    };
    into.push({
      place,
      driverName: reference.driverName ?? "",
      key: reference.claimData?.key ?? "",
      sizeBytes: Number(String(payload.externalPayloads?.[0]?.sizeBytes ?? 0)),
    });
    return;
  }
  for (const child of Object.values(value)) collectReferences(child, place, into);
}

/** Every payload of a history that is a reference to externally stored bytes, in history order. */
export function storedPayloadReferences(history: History): StoredPayloadReference[] {
  const found: StoredPayloadReference[] = [];
  for (const event of eventsOf(history)) {
    const key = Object.keys(event).find(
      (field) => field.endsWith("EventAttributes") && event[field as keyof HistoryEvent] != null,
    );
    if (key) collectReferences(event[key as keyof HistoryEvent], `${String(event.eventId)} ${key}`, found);
  }
  return found;
}

/** A search attribute upsert the workflow made: the values it set and when, in workflow time. */
export interface SearchAttributeUpsert {
  eventId: number;
  /** The upserted attributes, decoded (`AgentStatus: "running"`, `AgentTurns: 3`...). */
  values: Record<string, unknown>;
  /** When the workflow task that made it started (ms): the workflow's `Date.now()` in that task. */
  workflowTimeMs: number;
  /**
   * The latest time a worker recorded before it (ms): a plan's `resolvedAt` or a model call's `completedAt` in an
   * activity's result, the clock the session spaces its progress upserts by; -Infinity before the first.
   */
  recordedTimeMs: number;
}

/** The search attribute upserts of a history, in history order. */
export function searchAttributeUpserts(history: History): SearchAttributeUpsert[] {
  let taskStartedMs = 0;
  let recordedTimeMs = Number.NEGATIVE_INFINITY;
  const upserts: SearchAttributeUpsert[] = [];
  for (const event of eventsOf(history)) {
    if (event.workflowTaskStartedEventAttributes) taskStartedMs = timestampMs(event.eventTime);
    const recorded = recordedTimeOf(event);
    if (recorded !== undefined) recordedTimeMs = Math.max(recordedTimeMs, recorded);
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    if (!fields) continue;
    const values = Object.fromEntries(
      Object.entries(fields).map(([name, payload]) => [
        name,
        JSON.parse(payloadUtf8(payload.data)) as unknown,
      ]),
    );
    upserts.push({
      eventId: Number(String(event.eventId)),
      values,
      workflowTimeMs: taskStartedMs,
      recordedTimeMs,
    });
  }
  return upserts;
}

/** The time a worker recorded in an activity's result (`resolvedAt`, `completedAt`), if it holds one. */
function recordedTimeOf(event: HistoryEvent): number | undefined {
  const data = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
  if (!data) return undefined;
  try {
    const result = JSON.parse(payloadUtf8(data)) as { resolvedAt?: unknown; completedAt?: unknown };
    const at = result?.resolvedAt ?? result?.completedAt;
    return typeof at === "number" ? at : undefined;
  } catch {
    return undefined; // not JSON (an encrypted or stored payload)
  }
}

/** An event time in ms (its seconds are a Long in fetched histories, a number or string in loaded ones). */
export function timestampMs(time: HistoryEvent["eventTime"]): number {
  return Number(String(time?.seconds ?? 0)) * 1000 + Math.floor(Number(time?.nanos ?? 0) / 1e6);
}

/** A payload's data as text: bytes, or base64 in a history's JSON form. */
function payloadUtf8(data: unknown): string {
  if (typeof data === "string") return Buffer.from(data, "base64").toString("utf8");
  return data instanceof Uint8Array ? Buffer.from(data).toString("utf8") : "";
}
