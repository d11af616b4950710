import type { HistoryEvent } from "../history-events.js";
import { eventsOf } from "../history-events.js";
import type { History } from "../history-files.js";

/** Payload bytes found at one place of a history (an event kind, with the activity type when there is one). */
export interface PayloadPlace {
  place: string;
  count: number;
  totalBytes: number;
  maxBytes: number;
}

function isPayload(value: unknown): value is { data: Uint8Array } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { data?: unknown }).data instanceof Uint8Array &&
    "metadata" in value
  );
}

/** The sizes of every payload inside a value (the data of nested failures, headers and memos included). */
function payloadSizes(value: unknown, into: number[] = []): number[] {
  if (isPayload(value)) into.push(value.data.byteLength);
  else if (Array.isArray(value)) value.forEach((item) => payloadSizes(item, into));
  else if (typeof value === "object" && value !== null && !(value instanceof Uint8Array)) {
    Object.values(value).forEach((item) => payloadSizes(item, into));
  }
  return into;
}

function placeOf(event: HistoryEvent, key: string, activityTypes: Map<string, string>): string {
  const kind = key.replace(/EventAttributes$/, "");
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled) return `${kind}(${scheduled.activityType?.name ?? "?"}) input`;
  const ofActivity = (event[key as keyof HistoryEvent] as { scheduledEventId?: unknown } | null)
    ?.scheduledEventId;
  const type = ofActivity != null ? activityTypes.get(String(ofActivity)) : undefined;
  return type ? `${kind}(${type})` : kind;
}

/** Payload bytes by place, largest first: where a history's weight is. */
export function payloadPlaces(history: History): PayloadPlace[] {
  const activityTypes = new Map<string, string>();
  const places = new Map<string, PayloadPlace>();
  for (const event of eventsOf(history)) {
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) activityTypes.set(String(event.eventId), name);
    const key = Object.keys(event).find(
      (field) => field.endsWith("EventAttributes") && event[field as keyof HistoryEvent] != null,
    );
    if (!key) continue;
    const place = placeOf(event, key, activityTypes);
    for (const bytes of payloadSizes(event[key as keyof HistoryEvent])) {
      const entry = places.get(place) ?? { place, count: 0, totalBytes: 0, maxBytes: 0 };
      entry.count++;
      entry.totalBytes += bytes;
      entry.maxBytes = Math.max(entry.maxBytes, bytes);
      places.set(place, entry);
    }
  }
  return [...places.values()].sort((a, b) => b.totalBytes - a.totalBytes);
}
