import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** How far a reader got in each model call's live output: characters of text and of reasoning. */
export type DeltaCursor = Record<string, { text?: number; reasoning?: number }>;

interface CallOutput {
  attempt: number;
  parts: Record<StreamDelta["kind"], { at: number; text: string }>;
}

/** How many model calls' output stay readable (a reader may still be finishing the previous call's). */
const KEPT_CALLS = 4;
/** The most live output kept per call and kind; past it, readers get the final message only. */
const MAX_CHARS = 1_000_000;

/**
 * The live output a client has read of a session's model calls, per call and kind, so each read hands on only what is
 * beyond its cursor. Fed with heartbeat snapshots (`heartbeatSnapshotDeltas`), each repeating the last: only the excess
 * is appended, a later attempt replaces an earlier one, and a window moved past what is kept restarts at its offset.
 */
export class LiveDeltas {
  private readonly calls = new Map<string, CallOutput>();
  private readonly finished = new Set<string>();

  /** Stores a batch of one model call attempt's deltas, in order. */
  store(batch: StreamDelta[]): void {
    for (const delta of batch) this.storeOne(delta);
  }

  /** The output after the reader's cursor, per call and kind. */
  read(cursor: DeltaCursor = {}): StreamDelta[] {
    const out: StreamDelta[] = [];
    for (const [key, call] of this.calls) {
      for (const kind of ["reasoning", "text"] as const) {
        const part = call.parts[kind];
        const seen = Math.max(cursor[key]?.[kind] ?? 0, part.at);
        const text = part.text.slice(seen - part.at);
        if (text !== "") out.push({ key, attempt: call.attempt, kind, at: seen, text });
      }
    }
    return out;
  }

  private storeOne(delta: StreamDelta): void {
    let call = this.calls.get(delta.key);
    if (!call || delta.attempt > call.attempt) {
      if (!call && this.finished.has(delta.key)) return;
      call = { attempt: delta.attempt, parts: { text: empty(), reasoning: empty() } };
      this.calls.delete(delta.key);
      this.calls.set(delta.key, call);
      this.forgetOldCalls();
    }
    if (delta.attempt < call.attempt) return;
    const part = call.parts[delta.kind];
    const next = part.at + part.text.length;
    if (delta.at > next || part.text.length + delta.text.length > MAX_CHARS) {
      // A piece went missing (or the call is huge): what follows still shows; the gap is the final message's.
      if (delta.at > next) call.parts[delta.kind] = { at: delta.at, text: delta.text };
      return;
    }
    part.text += delta.text.slice(next - delta.at);
  }

  private forgetOldCalls(): void {
    while (this.calls.size > KEPT_CALLS) {
      const oldest = this.calls.keys().next().value as string;
      this.calls.delete(oldest);
      this.finished.add(oldest);
      if (this.finished.size > 4 * KEPT_CALLS) this.finished.delete(this.finished.values().next().value!);
    }
  }
}

function empty(): { at: number; text: string } {
  return { at: 0, text: "" };
}
