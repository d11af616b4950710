import type { Client } from "@temporalio/client";
import { EVENTS_TOPIC, fromWireEvent } from "../common/wire-event.js";
import { sessionStream, type DurableEvent } from "../runtime/run-event-stream.js";
import { DELTAS_TOPIC } from "../stream/stream-delta.js";

/** Give up widening the window past this many stream entries (a session's deltas can be many). */
const MAX_WINDOW = 20_000;

/**
 * The durable events (no deltas) of the stream between `from` and `end` (exclusive). Deltas are read too, so
 * the entry just before `end` always exists and the read ends there instead of waiting for new entries.
 */
async function readRange(
  temporal: Client,
  sessionId: string,
  from: number,
  end: number,
  wanted: (event: DurableEvent) => boolean,
): Promise<DurableEvent[]> {
  const events: DurableEvent[] = [];
  if (from >= end) return events;
  for await (const item of sessionStream(temporal, sessionId, [EVENTS_TOPIC, DELTAS_TOPIC], from)) {
    if (item.topic === EVENTS_TOPIC) {
      const event: DurableEvent = {
        ...fromWireEvent(item.entry.event),
        offset: item.offset,
        runId: item.entry.runId,
      };
      if (wanted(event)) events.push(event);
    }
    if (item.offset >= end - 1) break;
  }
  return events;
}

/**
 * The last `count` durable events of a session that are `wanted`, of every run, before stream offset `end` (the
 * session's `offset`). Reads back from `end - count`, widening the window while live deltas and unwanted
 * events crowd them out.
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
