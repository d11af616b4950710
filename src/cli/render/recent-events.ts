import type { Client } from "@temporalio/client";
import { fromWireEvent } from "../../wire/wire-conversion.js";
import type { DurableEvent } from "../../client/events/run-event-stream.js";
import { readStreamQuery } from "../../contract/stream/stream-messages.js";

/** Give up widening the window past this many entries. */
const MAX_WINDOW = 20_000;

/** The durable events between `from` and `end` (exclusive) that are `wanted`, read by query page after page. */
async function readRange(
  temporal: Client,
  sessionId: string,
  from: number,
  end: number,
  wanted: (event: DurableEvent) => boolean,
): Promise<DurableEvent[]> {
  const handle = temporal.workflow.getHandle(sessionId);
  const events: DurableEvent[] = [];
  for (let next = from; next < end;) {
    const page = await handle.query(readStreamQuery, { from: next });
    if (page.items.length === 0) break;
    for (const { offset, entry } of page.items) {
      if (offset >= end) return events;
      const event: DurableEvent = { ...fromWireEvent(entry.event), offset, runId: entry.runId };
      if (wanted(event)) events.push(event);
      next = offset + 1;
    }
  }
  return events;
}

/**
 * The last `count` durable events of a session that are `wanted`, of every run, before stream offset `end` (the
 * session's `offset`). Reads back from `end - count`, widening the window while unwanted events crowd them out.
 */
export async function recentEvents(
  temporal: Client,
  sessionId: string,
  end: number,
  count: number,
  wanted: (event: DurableEvent) => boolean = () => true,
): Promise<DurableEvent[]> {
  if (count <= 0 || end <= 0) return [];
  for (let window = count; ; window *= 4) {
    const from = Math.max(0, end - window);
    const events = await readRange(temporal, sessionId, from, end, wanted);
    if (events.length >= count || from === 0 || window >= MAX_WINDOW) return events.slice(-count);
  }
}
