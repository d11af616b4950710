import type { ToolEventBatch, ToolEventCursor } from "../../contract/stream/tool-event-batch.js";
import type { LoggedEntry } from "../../contract/stream/stream-entry.js";

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
 * Puts one `readStream` answer's tool events among its entries, right after the call's `tool_call_start` (first if
 * that came earlier): always before its `tool_call_end`. Events of passed calls are dropped; those of unreached starts
 * wait (`cursor` stays). Placed events carry the previous entry's offset and a {@link toolEventId}. Advances `cursor`.
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
 * The windows of the tool calls in flight, each with where its call began per the `readStream` answer
 * (`toolCallStarts`). A call the answer does not name started after the query and waits for the next read, so its
 * events never precede its start; its end cannot be in the answer (its activity was pending after the query).
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
