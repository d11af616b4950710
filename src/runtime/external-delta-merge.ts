import { Channel } from "../kernel/channel.js";
import { fromWireEvent } from "../common/wire-event.js";
import type { AgentEvent, RunResult } from "../kernel/events.js";
import { DeltaDeduper } from "../stream/delta-deduper.js";
import { deltaOfRun, type StreamDelta } from "../stream/stream-delta.js";
import type { DurableEvent, SessionStreamItem } from "./run-event-stream.js";

type Merged =
  | { kind: "event"; item: SessionStreamItem }
  | { kind: "delta"; id: string; delta: StreamDelta }
  | { kind: "tick" }
  | { kind: "closed" };

/** How long a finished model call waits for its end marker before giving up on the transport. */
const END_MARKER_WAIT_MS = 5_000;

/**
 * Merges a run's durable events with live deltas from an external transport into one ordered stream:
 * deltas show as they arrive while a model call is open (held otherwise); a successful `model_call_end` waits
 * for the call's end marker, which the activity stores before completing, so no text follows its call.
 */
export async function* mergeExternalDeltas(
  events: { items: AsyncGenerator<SessionStreamItem>; stop(): Promise<void> },
  readDeltas: (signal: AbortSignal) => AsyncIterable<{ id: string; delta: StreamDelta }>,
  runId: string,
): AsyncGenerator<DurableEvent, RunResult | undefined> {
  const channel = new Channel<Merged>();
  const controller = new AbortController();
  const pumps = [
    pump(events.items, (item) => ({ kind: "event", item }), channel, true),
    // A failing delta transport loses live text, never the run: the final message events still carry it.
    pump(readDeltas(controller.signal), (d) => ({ kind: "delta", ...d }), channel, false),
  ];
  const state = new MergeState(runId);
  try {
    for await (const message of channel) {
      if (message.kind === "closed") break;
      if (message.kind === "delta") state.acceptDelta(message.id, message.delta);
      if (message.kind === "event") state.held.push(message.item);
      const result = yield* state.release(() => setTimeout(() => channel.push({ kind: "tick" }), 100));
      if (result) return result;
    }
    return undefined;
  } finally {
    controller.abort();
    // The events pump sits in a long poll that only ends when the connection closes.
    await events.stop();
    await Promise.allSettled(pumps);
  }
}

async function pump<T>(
  source: AsyncIterable<T>,
  wrap: (value: T) => Merged,
  channel: Channel<Merged>,
  endsMerge: boolean,
): Promise<void> {
  try {
    for await (const value of source) channel.push(wrap(value));
  } finally {
    if (endsMerge) channel.push({ kind: "closed" });
  }
}

class MergeState {
  readonly held: SessionStreamItem[] = [];
  private readonly deduper = new DeltaDeduper();
  private pendingDeltas: { id: string; events: AgentEvent[] }[] = [];
  private open = true;
  private offset = 0;
  private endsSeen = 0;
  private endsUsed = 0;
  private waitingSince: number | undefined;

  constructor(private readonly runId: string) {}

  acceptDelta(id: string, delta: StreamDelta): void {
    if (!deltaOfRun(delta, this.runId)) return;
    this.pendingDeltas.push({ id, events: this.deduper.accept(delta) });
    if (delta.end) this.endsSeen++;
  }

  /** Yields what may be shown now; returns the run's result once its `done` is released. */
  *release(scheduleTick: () => void): Generator<DurableEvent, RunResult | undefined> {
    yield* this.flushDeltas();
    while (this.held.length > 0) {
      const item = this.held[0]!;
      if (item.topic !== "events") {
        this.held.shift();
        continue;
      }
      this.offset = item.offset;
      if (item.entry.runId !== this.runId) {
        this.held.shift();
        continue;
      }
      const event = fromWireEvent(item.entry.event);
      if (event.type === "model_call_end" && event.error === undefined && !this.endArrived()) {
        scheduleTick();
        return undefined;
      }
      this.held.shift();
      yield* this.flushDeltas();
      if (event.type === "model_call_start") this.open = true;
      if (event.type === "model_call_end") this.open = false;
      yield { ...event, offset: item.offset, runId: this.runId };
      if (event.type === "done") return event.result;
    }
    return undefined;
  }

  private endArrived(): boolean {
    if (this.endsSeen > this.endsUsed) {
      this.endsUsed++;
      this.waitingSince = undefined;
      return true;
    }
    this.waitingSince ??= Date.now();
    if (Date.now() - this.waitingSince < END_MARKER_WAIT_MS) return false;
    this.waitingSince = undefined;
    return true;
  }

  private *flushDeltas(): Generator<DurableEvent> {
    if (!this.open) return;
    const pending = this.pendingDeltas;
    this.pendingDeltas = [];
    for (const { id, events } of pending)
      for (const event of events) yield { ...event, offset: this.offset, runId: this.runId, deltaId: id };
  }
}
