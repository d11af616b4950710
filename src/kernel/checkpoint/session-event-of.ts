import type { SessionEvent, StoredEvent } from "../vocabulary/session-events.js";

/** The session event inside a stored record, or the event itself when it was never stored. */
export function sessionEventOf(entry: SessionEvent | StoredEvent): SessionEvent {
  // A StoredEvent has no `type` of its own; every SessionEvent has one.
  return "type" in entry ? entry : entry.event;
}
