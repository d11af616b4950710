import type { SessionEvent, StoredEvent } from "../vocabulary/session-events.js";

/**
 * Stamps events for storage after `fromSeq`: seq `fromSeq + 1`, `fromSeq + 2`, …, `parentSeq` = seq − 1 (null for
 * the first event of a session) and `ts`. The caller passes the time in because the kernel may not read the clock.
 */
export function storeEvents(
  sessionId: string,
  fromSeq: number,
  events: readonly SessionEvent[],
  nowIso: string,
): StoredEvent[] {
  return events.map((event, index) => {
    const seq = fromSeq + index + 1;
    return { seq, sessionId, parentSeq: seq === 1 ? null : seq - 1, ts: nowIso, event };
  });
}
