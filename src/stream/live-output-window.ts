import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** One kind of a model call's live output: the text kept, and its character offset in the attempt's output. */
export interface OutputPart {
  at: number;
  text: string;
}

/**
 * What a model activity's heartbeat carries: its call's live output so far, as much of the tail as fits the window
 * ({@link LIVE_OUTPUT_WINDOW_BYTES}). Each heartbeat's details replace the previous ones on the server's pending
 * activity, where clients read them (`DescribeWorkflowExecution`); nothing of it is written to history.
 */
export interface LiveOutputSnapshot {
  liveOutput: { key: string; attempt: number; text: OutputPart; reasoning: OutputPart };
}

/**
 * The most UTF-8 bytes of output one heartbeat carries. Well below the payload storage threshold (128 KiB by
 * default, ADR 0004), so a heartbeat never goes by reference; a reader that falls further behind than this gets the
 * rest from the final message, as one that missed live output always does.
 */
export const LIVE_OUTPUT_WINDOW_BYTES = 64 * 1024;

/**
 * The live output of one model-call attempt, bounded to the tail that fits `maxBytes`: when it grows past it, the
 * oldest characters are dropped and the kind's `at` moves forward (reasoning first: it comes before the text).
 */
export class LiveOutputWindow {
  private readonly parts: Record<StreamDelta["kind"], OutputPart> = {
    text: { at: 0, text: "" },
    reasoning: { at: 0, text: "" },
  };

  constructor(
    private readonly origin: { key: string; attempt: number },
    private readonly maxBytes = LIVE_OUTPUT_WINDOW_BYTES,
  ) {}

  /** Adds the attempt's deltas, in order; a delta past a gap starts its kind again at its own offset. */
  add(deltas: StreamDelta[]): void {
    for (const delta of deltas) {
      const part = this.parts[delta.kind];
      const next = part.at + part.text.length;
      if (delta.at > next) this.parts[delta.kind] = { at: delta.at, text: delta.text };
      else part.text += delta.text.slice(next - delta.at);
    }
    this.trim();
  }

  /** The heartbeat details: a copy of what the window holds now. */
  snapshot(): LiveOutputSnapshot {
    const { text, reasoning } = this.parts;
    return { liveOutput: { ...this.origin, text: { ...text }, reasoning: { ...reasoning } } };
  }

  private trim(): void {
    for (const kind of ["reasoning", "text"] as const) {
      const excess = byteLength(this.parts.reasoning.text) + byteLength(this.parts.text.text) - this.maxBytes;
      if (excess > 0) this.parts[kind] = dropHead(this.parts[kind], excess);
    }
  }
}

/** The deltas a snapshot holds, one per kind that has text (a reader's `LiveDeltas` keeps what goes beyond). */
export function snapshotDeltas({ liveOutput }: LiveOutputSnapshot): StreamDelta[] {
  const { key, attempt } = liveOutput;
  return (["reasoning", "text"] as const).flatMap((kind) => {
    const { at, text } = liveOutput[kind];
    return text === "" ? [] : [{ key, attempt, kind, at, text }];
  });
}

/** True for heartbeat details that are a {@link LiveOutputSnapshot} (a worker of another build may send others). */
export function isLiveOutputSnapshot(value: unknown): value is LiveOutputSnapshot {
  const live = (value as Partial<LiveOutputSnapshot> | null)?.liveOutput;
  return (
    typeof live === "object" &&
    live !== null &&
    typeof live.key === "string" &&
    typeof live.attempt === "number" &&
    isPart(live.text) &&
    isPart(live.reasoning)
  );
}

function isPart(part: unknown): part is OutputPart {
  const value = part as Partial<OutputPart> | null;
  return typeof value?.at === "number" && typeof value.text === "string";
}

/** The part without its oldest characters worth at least `bytes` bytes, never splitting a surrogate pair. */
function dropHead(part: OutputPart, bytes: number): OutputPart {
  let cut = 0;
  for (let dropped = 0; dropped < bytes && cut < part.text.length; cut++)
    dropped += byteLength(part.text[cut]!);
  if (isLowSurrogate(part.text.charCodeAt(cut))) cut++;
  return { at: part.at + cut, text: part.text.slice(cut) };
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
