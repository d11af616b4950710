import type { WireEvent } from "../common/wire-event.js";

/** The most one event may take in the session's event log (and so in one `readStream` answer). */
export const MAX_LOGGED_EVENT_CHARS = 64 * 1024;
/** What a long string keeps of itself in a bounded event. */
const KEPT_STRING_CHARS = 8 * 1024;

/**
 * An event small enough for the event log. The log is workflow memory read by query; what does not fit there is
 * still whole in the session's history (activity results) and in the run's result. A `done` keeps the newest
 * messages that fit and says how many it left out (`messagesOmitted`); any other event has its long strings cut,
 * each with a note of how much was cut.
 */
export function boundedEvent(event: WireEvent): WireEvent {
  if (JSON.stringify(event).length <= MAX_LOGGED_EVENT_CHARS) return event;
  if (event.type === "done") return boundedDone(event);
  return cutLongStrings(event) as WireEvent;
}

function boundedDone(event: Extract<WireEvent, { type: "done" }>): WireEvent {
  const messages = event.result.messages;
  const kept: typeof messages = [];
  let size = JSON.stringify({ ...event, result: { ...event.result, messages: [] } }).length;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = cutLongStrings(messages[index]) as (typeof messages)[number];
    size += JSON.stringify(message).length;
    if (size > MAX_LOGGED_EVENT_CHARS) break;
    kept.unshift(message);
  }
  const text =
    event.result.text.length > MAX_LOGGED_EVENT_CHARS / 2 ? cutString(event.result.text) : event.result.text;
  const result = { ...event.result, text, messages: kept, messagesOmitted: messages.length - kept.length };
  return { ...event, result };
}

function cutLongStrings(value: unknown): unknown {
  if (typeof value === "string") return cutString(value);
  if (Array.isArray(value)) return value.map(cutLongStrings);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cutLongStrings(inner)]));
}

function cutString(text: string): string {
  if (text.length <= KEPT_STRING_CHARS) return text;
  const cut = text.length - KEPT_STRING_CHARS;
  return `${text.slice(0, KEPT_STRING_CHARS)}… [${cut} more characters in the session's history]`;
}
