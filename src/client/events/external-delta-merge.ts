import { Channel } from "../../kernel/vocabulary/channel.js";
import { fromWireEvent } from "../../wire/wire-conversion.js";
import type { AgentEvent, RunResult } from "../../kernel/vocabulary/events.js";
import { DeltaDeduper } from "../../stream/delta-deduper.js";
import { deltaOfRun } from "../../stream/stream-delta.js";
import type { StreamDelta } from "../../contract/stream/stream-delta.js";
import { finalOutput } from "./final-output.js";
import type { DurableEvent, SessionStreamItem } from "./durable-event.js";

/** What a merge reads: durable events and live deltas, in the order their source gives them. */
export type MergeInput =
  { kind: "event"; item: SessionStreamItem } | { kind: "delta"; id: string; delta: StreamDelta };

type Merged = MergeInput | { kind: "tick" } | { kind: "closed" };

/** Where a merge reads from: one ordered source, or durable events and an external transport side by side. */
export type MergeSource =
  | { ordered: AsyncIterable<MergeInput>; stop(): Promise<void> }
  | {
      items: AsyncGenerator<SessionStreamItem>;
      readDeltas: (signal: AbortSignal) => AsyncIterable<{ id: string; delta: StreamDelta }>;
      stop(): Promise<void>;
    };

/** How long a finished model call waits for its end marker before giving up on the transport. */
const END_MARKER_WAIT_MS = 5_000;

/**
 * Merges a run's durable events with live deltas into one ordered stream: deltas show while a model call is open; a
 * successful `model_call_end` waits for the call's end marker (from heartbeats: its `message`, first showing what was
 * not shown live), so no text follows its call. `resumedAt` is the output id a resumed reader goes on after.
 */
export async function* mergeExternalDeltas(
  source: MergeSource,
  runId: string,
  resumed: boolean,
  resumedAt?: string,
): AsyncGenerator<DurableEvent, RunResult | undefined> {
  const channel = new Channel<Merged>();
  const controller = new AbortController();
  // Why the events ended, when they failed (a closed client, a session that stays unreadable): the reader of the
  // merge gets that error rather than a quiet end.
  let eventsFailure: { error: unknown } | undefined;
  const failed = (error: unknown) => void (eventsFailure ??= { error });
  const pumps =
    "ordered" in source
      ? [pump(source.ordered, (input) => input, channel, true, failed)]
      : [
          pump(source.items, (item) => ({ kind: "event", item }), channel, true, failed),
          // A failing delta transport loses live text, never the run: the final message events still carry it.
          pump(source.readDeltas(controller.signal), (d) => ({ kind: "delta", ...d }), channel, false),
        ];
  // The ordered source (heartbeats read by the session's reader) has no end markers: a call's output can never follow
  // its model_call_end (the activity completed before the end was recorded), and its tail comes from the message.
  // Only a separate transport's deltas can come after the event, so only there does a call's end wait for a marker.
  const state = new MergeState(runId, resumed, !("ordered" in source));
  if (resumedAt !== undefined) state.resumeAfter(resumedAt);
  // One pending tick at most: a model_call_end waiting for its end marker looks again every 100 ms.
  let tick: ReturnType<typeof setTimeout> | undefined;
  const scheduleTick = () => {
    tick ??= setTimeout(() => {
      tick = undefined;
      channel.push({ kind: "tick" });
    }, 100);
  };
  try {
    let eventsEnded = false;
    for await (const message of channel) {
      // The events may end while one still waits for its end marker: finish releasing what is held first.
      if (message.kind === "closed") eventsEnded = state.eventsEnded = true;
      if (message.kind === "delta") state.acceptDelta(message.id, message.delta);
      if (message.kind === "event") state.held.push(message.item);
      const result = yield* state.release(scheduleTick);
      if (result) return result;
      if (eventsEnded && state.held.length === 0) break;
    }
    if (eventsFailure) throw eventsFailure.error;
    return undefined;
  } finally {
    if (tick) clearTimeout(tick);
    controller.abort();
    // The events pump sits in a long poll that only ends when the connection closes.
    await source.stop();
    await Promise.allSettled(pumps);
  }
}

async function pump<T>(
  input: AsyncIterable<T>,
  wrap: (value: T) => Merged,
  channel: Channel<Merged>,
  endsMerge: boolean,
  failed?: (error: unknown) => void,
): Promise<void> {
  try {
    for await (const value of input) channel.push(wrap(value));
  } catch (error) {
    failed?.(error);
    throw error;
  } finally {
    if (endsMerge) channel.push({ kind: "closed" });
  }
}

/** The number of a model call within its run: keys are `<runId>:<n>`, n counting the run's model calls from 1. */
function callNumber(key: string): number {
  return Number(key.slice(key.lastIndexOf(":") + 1));
}

/**
 * Holds external deltas until their model call is the open one. The k-th `model_call_start` of a run opens call
 * k (each one is exactly one model activity), so deltas of the next call that arrive while the workflow's events
 * lag behind wait for their own start; a successful `model_call_end` waits for its call's end marker.
 */
class MergeState {
  readonly held: SessionStreamItem[] = [];
  private readonly deduper = new DeltaDeduper();
  private pendingDeltas: { id: string; call: number; events: AgentEvent[] }[] = [];
  /** The open call; undefined after a resume until a delta or a start says which it is. */
  private current: number | undefined;
  private open: boolean;
  /** False after a resume until a `model_call_start` fixes which call is open. */
  private anchored: boolean;
  private offset = 0;
  private readonly ended = new Set<number>();
  /** Calls whose `model_call_end` was shown: their late deltas (an interrupted or failed call's) are dropped. */
  private readonly finished = new Set<number>();
  private waitingSince: number | undefined;
  /** Set once no more events will come: nothing waits for a later one then. */
  eventsEnded = false;

  constructor(
    private readonly runId: string,
    resumed: boolean,
    private readonly markersMayLag: boolean,
  ) {
    // A fresh reader starts before the run's first call; a resumed one may be in the middle of one.
    this.current = resumed ? undefined : 0;
    this.open = resumed;
    this.anchored = !resumed;
  }

  /** A resumed reader saw a call's output up to its id (`key|kind|end`): that much is never shown again. */
  resumeAfter(id: string): void {
    const [key, kind, end] = id.split("|");
    if (key && (kind === "text" || kind === "reasoning") && Number.isFinite(Number(end)))
      this.deduper.skip(key, kind, Number(end));
  }

  acceptDelta(id: string, delta: StreamDelta): void {
    if (!deltaOfRun(delta, this.runId)) return;
    const call = callNumber(delta.key);
    // A resumed reader learns the open call from the deltas: the newest one (older calls' may still be readable).
    if (!this.anchored) this.current = Math.max(this.current ?? 0, call);
    if (delta.end) this.ended.add(call);
    if (this.isOver(call)) return;
    this.pendingDeltas.push({ id, call, events: this.deduper.accept(delta) });
  }

  /**
   * Whether a call is over: its end was shown, or a later call started. A cancelled (interrupted) model activity
   * goes on streaming until it notices, and those deltas must not show up in the next call's text.
   */
  private isOver(call: number): boolean {
    return this.finished.has(call) || (this.anchored && this.current !== undefined && call < this.current);
  }

  /** Yields what may be shown now; returns the run's result once its `done` is released. */
  *release(scheduleTick: () => void): Generator<DurableEvent, RunResult | undefined> {
    yield* this.flushDeltas();
    while (this.held.length > 0) {
      const item = this.held[0]!;
      // A lost range concerns every reader that reaches it, whichever run's events it held.
      const ours = item.entry.runId === this.runId || item.entry.event.type === "events_lost";
      if (item.topic !== "events" || !ours) {
        this.held.shift();
        continue;
      }
      this.offset = item.offset;
      const event = fromWireEvent(item.entry.event);
      if (event.type === "model_call_end" && item.entry.modelCall !== undefined)
        this.current = item.entry.modelCall;
      const awaitsMarker =
        event.type === "model_call_end" && event.error === undefined && item.entry.liveOutput === undefined;
      if (awaitsMarker && !this.endArrived()) {
        scheduleTick();
        return undefined;
      }
      const tail = this.awaitsMessage(event, item) ? this.callTail() : undefined;
      if (tail === "later") return undefined;
      this.held.shift();
      yield* this.flushDeltas();
      if (tail) yield* this.showTail(tail);
      if (event.type === "model_call_start") {
        // Durable sessions name the call; otherwise the k-th start opens call k (unknown after a resume until a
        // delta names it).
        if (item.entry.modelCall !== undefined) this.current = item.entry.modelCall;
        else if (this.current !== undefined) this.current++;
        this.anchored = this.current !== undefined;
        this.open = true;
      }
      if (event.type === "model_call_end") {
        this.open = false;
        if (this.current !== undefined) this.finished.add(this.current);
      }
      yield {
        ...event,
        offset: item.offset,
        runId: this.runId,
        ...(item.deltaId === undefined ? {} : { deltaId: item.deltaId }),
      };
      yield* this.flushDeltas();
      if (event.type === "done") return event.result;
    }
    return undefined;
  }

  /** Whether a call's end takes what was not shown live from its message: heartbeat output ends with the activity. */
  private awaitsMessage(event: AgentEvent, item: SessionStreamItem): boolean {
    return (
      !this.markersMayLag &&
      event.type === "model_call_end" &&
      event.error === undefined &&
      item.entry.liveOutput === "session" &&
      this.open &&
      this.current !== undefined
    );
  }

  /**
   * The final output of the call whose end is first in `held`, from its `message` (the run's next one, before any
   * other call or the run's end); "later" while it may still come, undefined when the call has none.
   */
  private callTail(): { key: string; message: AgentEvent & { type: "message" } } | "later" | undefined {
    for (const item of this.held.slice(1)) {
      if (item.entry.runId !== this.runId) continue;
      const event = fromWireEvent(item.entry.event);
      if (event.type === "message") return { key: `${this.runId}:${this.current}`, message: event };
      if (["model_call_start", "model_call_end", "done", "error"].includes(event.type)) return undefined;
    }
    return this.eventsEnded ? undefined : "later";
  }

  /** What of the call's text and reasoning was not shown live, from its message, as the deltas would have shown it. */
  private *showTail(tail: {
    key: string;
    message: AgentEvent & { type: "message" };
  }): Generator<DurableEvent> {
    const final = finalOutput(tail.message.message);
    for (const kind of ["reasoning", "text"] as const) {
      const rest = this.deduper.tail(tail.key, kind, final[kind]);
      if (!rest) continue;
      const at = final[kind].length - rest.length;
      const id = `${tail.key}|${kind}|${final[kind].length}`;
      for (const event of this.deduper.accept({ key: tail.key, attempt: 0, kind, at, text: rest }))
        yield { ...event, offset: this.offset, runId: this.runId, deltaId: id };
    }
  }

  /**
   * True once the open call's end marker arrived, or after waiting long enough (a transport that lost it); at once
   * when markers cannot come after the event (one ordered source).
   */
  private endArrived(): boolean {
    if (!this.markersMayLag || this.current === undefined || this.ended.has(this.current)) {
      this.waitingSince = undefined;
      return true;
    }
    this.waitingSince ??= Date.now();
    if (Date.now() - this.waitingSince < END_MARKER_WAIT_MS) return false;
    this.waitingSince = undefined;
    return true;
  }

  /** Releases the deltas of the open call; later calls' deltas wait, and those of calls that are over are dropped. */
  private *flushDeltas(): Generator<DurableEvent> {
    if (!this.open || this.current === undefined) return;
    const current = this.current;
    const ready = this.pendingDeltas.filter((delta) => delta.call <= current && !this.isOver(delta.call));
    if (ready.length === 0) return;
    this.pendingDeltas = this.pendingDeltas.filter((delta) => delta.call > current);
    for (const { id, events } of ready)
      for (const event of events) yield { ...event, offset: this.offset, runId: this.runId, deltaId: id };
  }
}
