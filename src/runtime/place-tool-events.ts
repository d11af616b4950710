import type { ToolEventBatch, ToolEventCursor } from "../common/tool-event-batch.js";
import type { LoggedEntry } from "../workflows/event-log.js";

/**
 * Puts the tool events of one `readStream` answer among its logged entries: each call's events right after its
 * `tool_call_start`, or first when that start came in an earlier answer (so always before the call's
 * `tool_call_end`, which the workflow logs only after the activity stored them). Events of a call whose end the
 * reader has passed are dropped; those whose start this answer does not reach yet wait for the next one (the
 * cursor stays). A placed event carries the offset of the entry before it. Advances `cursor`.
 */
export function placeToolEvents(
  items: LoggedEntry[],
  batches: ToolEventBatch[],
  from: number,
  cursor: ToolEventCursor,
): LoggedEntry[] {
  const front: LoggedEntry[] = [];
  const after = new Map<number, LoggedEntry[]>();
  const reached = items.length > 0 ? items[items.length - 1]!.offset : from - 1;
  for (const batch of batches) {
    const seen = cursor[batch.key] ?? 0;
    const events = batch.events.slice(Math.max(0, seen - batch.at));
    if (events.length === 0) continue;
    const start = batch.startOffset ?? from - 1;
    if (start > reached) continue;
    cursor[batch.key] = Math.max(seen, batch.at + batch.events.length);
    if (batch.endOffset !== undefined && batch.endOffset < from) continue;
    const offset = Math.max(start, from - 1);
    const placed = events.map((event) => ({ offset, entry: { runId: batch.runId, event } }));
    if (start < from) front.push(...placed);
    else after.set(start, [...(after.get(start) ?? []), ...placed]);
  }
  const out = front;
  for (const item of items) out.push(item, ...(after.get(item.offset) ?? []));
  return out;
}
