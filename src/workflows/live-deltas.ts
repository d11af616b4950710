import type { StreamDelta } from "../stream/stream-delta.js";

/** How far a reader got in each model call's live output: characters of text and of reasoning. */
export type DeltaCursor = Record<string, { text?: number; reasoning?: number }>;

interface CallOutput {
  attempt: number;
  ended: boolean;
  parts: Record<StreamDelta["kind"], { at: number; text: string }>;
}

/** How many model calls' output stay readable (a reader may still be finishing the previous call's). */
const KEPT_CALLS = 4;
/** The most live output kept per call and kind; past it, readers get the final message only. */
const MAX_CHARS = 1_000_000;

/**
 * Live model output of a session, kept only in the memory of the worker that caches the workflow. It is filled
 * by update validators that store a batch and reject the update, so live output writes nothing into history
 * (docs/decisions/0005); it is never read by workflow code, only by the `readStream` query, so a replay (which
 * starts it empty) cannot diverge. A reader that misses output here still gets the final message.
 */
export class LiveDeltas {
  private readonly calls = new Map<string, CallOutput>();
  private readonly finished = new Set<string>();

  /** Stores a batch of one model call attempt's deltas, in order. */
  store(batch: StreamDelta[]): void {
    for (const delta of batch) this.storeOne(delta);
  }

  /** The output after the reader's cursor, per call and kind, plus each ended call's end marker. */
  read(cursor: DeltaCursor = {}): StreamDelta[] {
    const out: StreamDelta[] = [];
    for (const [key, call] of this.calls) {
      for (const kind of ["reasoning", "text"] as const) {
        const part = call.parts[kind];
        const seen = Math.max(cursor[key]?.[kind] ?? 0, part.at);
        const text = part.text.slice(seen - part.at);
        if (text !== "") out.push({ key, attempt: call.attempt, kind, at: seen, text });
      }
      if (call.ended) {
        const end = call.parts.text.at + call.parts.text.text.length;
        out.push({ key, attempt: call.attempt, kind: "text", at: end, text: "", end: true });
      }
    }
    return out;
  }

  private storeOne(delta: StreamDelta): void {
    let call = this.calls.get(delta.key);
    if (!call || delta.attempt > call.attempt) {
      if (!call && this.finished.has(delta.key)) return;
      call = { attempt: delta.attempt, ended: false, parts: { text: empty(), reasoning: empty() } };
      this.calls.delete(delta.key);
      this.calls.set(delta.key, call);
      this.forgetOldCalls();
    }
    if (delta.attempt < call.attempt) return;
    if (delta.end) call.ended = true;
    const part = call.parts[delta.kind];
    const next = part.at + part.text.length;
    if (delta.at > next || part.text.length + delta.text.length > MAX_CHARS) {
      // A batch went missing (or the call is huge): what follows still shows; the gap is the final message's.
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
