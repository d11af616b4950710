import type { ToolEventBatch, ToolEventCursor } from "../../contract/tool-event-batch.js";
import type { LoggedEntry } from "../../contract/stream-entry.js";

/** A logged entry, or a tool's event placed among them with its id (`deltaId`: live output, not a logged entry). */
export type PlacedEntry = LoggedEntry & { deltaId?: string };

/** The id of a call's `count`-th event (from 1): what a resuming reader passes back to go on after it. */
export function toolEventId(key: string, count: number): string {
  return `${key}|tool|${count}`;
}

/** The call and how many of its events an id of {@link toolEventId} says were seen; undefined for other ids. */
export function parseToolEventId(id: string): { key: string; seen: number } | undefined {
  const match = /^(.*)\|tool\|(\d+)$/.exec(id);
  return match ? { key: match[1]!, seen: Number(match[2]) } : undefined;
}

/**
 * Puts the tool events of one `readStream` answer among its logged entries: each call's events right after its
 * `tool_call_start`, or first when that start came in an earlier answer (so always before the call's
 * `tool_call_end`, which the workflow logs only after the activity stored them). Events of a call whose end the
 * reader has passed are dropped; those whose start this answer does not reach yet wait for the next one (the
 * cursor stays). A placed event carries the offset of the entry before it and its own id ({@link toolEventId}), which
 * marks it as live output: readers count logged entries by offset, and resume a call's events by that id. Advances
 * `cursor`.
 */
export function placeToolEvents(
  items: LoggedEntry[],
  batches: ToolEventBatch[],
  from: number,
  cursor: ToolEventCursor,
): PlacedEntry[] {
  const front: PlacedEntry[] = [];
  const after = new Map<number, PlacedEntry[]>();
  const reached = items.length > 0 ? items[items.length - 1]!.offset : from - 1;
  for (const batch of batches) {
    const seen = cursor[batch.key] ?? 0;
    const skipped = Math.max(0, seen - batch.at);
    const events = batch.events.slice(skipped);
    if (events.length === 0) continue;
    const start = batch.startOffset ?? from - 1;
    if (start > reached) continue;
    cursor[batch.key] = Math.max(seen, batch.at + batch.events.length);
    if (batch.endOffset !== undefined && batch.endOffset < from) continue;
    const offset = Math.max(start, from - 1);
    const first = batch.at + skipped;
    const placed = events.map((event, index) => ({
      offset,
      entry: { runId: batch.runId, event },
      deltaId: toolEventId(batch.key, first + index + 1),
    }));
    if (start < from) front.push(...placed);
    else after.set(start, [...(after.get(start) ?? []), ...placed]);
  }
  const out: PlacedEntry[] = front;
  for (const item of items) out.push(item, ...(after.get(item.offset) ?? []));
  return out;
}

/**
 * The windows of the tool calls in flight, read from their activities' heartbeats, each with where its call began as
 * the `readStream` answer says (`toolCallStarts`). A call the answer does not name (it started after the query) is
 * left for the next read: its events must not come before its start. Its end cannot be in the answer, since the
 * activity was still pending when the session was described, after the query.
 */
export function startedWindows(
  windows: ToolEventBatch[],
  starts: Record<string, number> = {},
): ToolEventBatch[] {
  return windows.flatMap((window) => {
    const start = starts[window.key];
    return start === undefined ? [] : [{ ...window, startOffset: start }];
  });
}
