import type { ToolEventBatch, ToolEventCursor } from "../common/tool-event-batch.js";
import type { WireEvent } from "../common/wire-event.js";

interface CallEvents {
  runId: string;
  attempt: number;
  events: WireEvent[];
}

/** How many tool calls' events stay readable (parallel calls, and a reader finishing the previous turn's). */
const KEPT_CALLS = 16;
/** The most events kept per call; later ones are not shown live (the call's result still comes). */
const MAX_EVENTS_PER_CALL = 1_000;
/** The most events one read returns; the rest come with the next read. */
const MAX_EVENTS_PER_READ = 500;

/**
 * Events tools emitted inside their activities, kept only in the memory of the worker that caches the session,
 * like live model output (docs/decisions/0007): filled by an update validator that rejects the update, so
 * nothing enters history; never read by workflow code, only by `readStream`, so a replay cannot diverge.
 */
export class LiveToolEvents {
  private readonly calls = new Map<string, CallEvents>();
  /** Where each recent call's start and end are in the event log, so readers place its events between them. */
  private readonly bounds = new Map<string, { start?: number; end?: number }>();

  /** Notes the log offset of a call's `tool_call_start` or `tool_call_end`. */
  noteBound(key: string, side: "start" | "end", offset: number): void {
    const bound = this.bounds.get(key) ?? {};
    bound[side] = offset;
    this.bounds.set(key, bound);
    if (this.bounds.size > 4 * KEPT_CALLS) this.bounds.delete(this.bounds.keys().next().value!);
  }

  /**
   * Stores a batch. A later attempt of a call replaces what an earlier one stored (its events are numbered from 0
   * again, so a reader that saw n events of the failed attempt goes on from the retry's n-th); a stale attempt's
   * batch, and events already stored, are ignored.
   */
  store(batch: ToolEventBatch): void {
    let call = this.calls.get(batch.key);
    if (call && batch.attempt < call.attempt) return;
    if (!call || batch.attempt > call.attempt) {
      call = { runId: batch.runId, attempt: batch.attempt, events: [] };
      this.calls.delete(batch.key);
      this.calls.set(batch.key, call);
      if (this.calls.size > KEPT_CALLS) this.calls.delete(this.calls.keys().next().value!);
    }
    // A gap (a lost batch) is not filled with later events: readers count events by their index.
    if (batch.at > call.events.length) return;
    const fresh = batch.events.slice(call.events.length - batch.at);
    call.events.push(...fresh.slice(0, MAX_EVENTS_PER_CALL - call.events.length));
  }

  /** The events after the reader's cursor, per call, at most {@link MAX_EVENTS_PER_READ} in all. */
  read(cursor: ToolEventCursor): ToolEventBatch[] {
    const out: ToolEventBatch[] = [];
    let budget = MAX_EVENTS_PER_READ;
    for (const [key, call] of this.calls) {
      const at = Math.max(0, cursor[key] ?? 0);
      const events = call.events.slice(at, at + budget);
      if (events.length === 0) continue;
      const bound = this.bounds.get(key);
      out.push({
        key,
        runId: call.runId,
        attempt: call.attempt,
        at,
        events,
        ...(bound?.start !== undefined ? { startOffset: bound.start } : {}),
        ...(bound?.end !== undefined ? { endOffset: bound.end } : {}),
      });
      budget -= events.length;
      if (budget === 0) break;
    }
    return out;
  }
}
