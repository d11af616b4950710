import type { ToolEventBatch, ToolEventCursor } from "../../contract/stream/tool-event-batch.js";

/** How many tool calls' events stay readable (parallel calls, and a reader finishing the previous turn's). */
const KEPT_CALLS = 16;

/**
 * The last event window of each recent tool call, from its activity's result (docs/decisions/0021), for readers that
 * missed the last heartbeat before the call ended. Filled as the workflow takes a recorded result (replays fill it
 * alike) and read only by `readStream`, so it decides no command.
 */
export class LiveToolEvents {
  private readonly calls = new Map<string, ToolEventBatch>();
  /** Where each recent call's start and end are in the event log, so readers place its events between them. */
  private readonly bounds = new Map<string, { start?: number; end?: number }>();

  /** Notes the log offset of a call's `tool_call_start` or `tool_call_end`. */
  noteBound(key: string, side: "start" | "end", offset: number): void {
    const bound = this.bounds.get(key) ?? {};
    bound[side] = offset;
    this.bounds.set(key, bound);
    if (this.bounds.size > 4 * KEPT_CALLS) this.bounds.delete(this.bounds.keys().next().value!);
  }

  /** Keeps the last window of a call's events (one per call: only a completed attempt has a result). */
  store(batch: ToolEventBatch): void {
    this.calls.delete(batch.key);
    this.calls.set(batch.key, {
      key: batch.key,
      runId: batch.runId,
      attempt: batch.attempt,
      at: batch.at,
      events: batch.events,
    });
    if (this.calls.size > KEPT_CALLS) this.calls.delete(this.calls.keys().next().value!);
  }

  /** The kept events after the reader's cursor, per call, with the offsets of the call's start and end. */
  read(cursor: ToolEventCursor): ToolEventBatch[] {
    const out: ToolEventBatch[] = [];
    for (const [key, call] of this.calls) {
      const at = Math.max(call.at, cursor[key] ?? 0);
      const events = call.events.slice(at - call.at);
      if (events.length === 0) continue;
      out.push({ ...call, at, events, ...this.offsets(key) });
    }
    return out;
  }

  /** Where the calls that started and have not ended began in the log, by key: readers place their live events. */
  starts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, bound] of this.bounds)
      if (bound.start !== undefined && bound.end === undefined) out[key] = bound.start;
    return out;
  }

  private offsets(key: string): Pick<ToolEventBatch, "startOffset" | "endOffset"> {
    const bound = this.bounds.get(key);
    return {
      ...(bound?.start !== undefined ? { startOffset: bound.start } : {}),
      ...(bound?.end !== undefined ? { endOffset: bound.end } : {}),
    };
  }
}
