import type { ModelChunk } from "../kernel/vocabulary/model.js";
import type { SecretScrubber } from "./scrub-secrets.js";

/**
 * Scrubs a text that arrives in pieces: `push` returns what can be shown now, scrubbed, holding back an end that may
 * be the start of a secret; `end` returns the rest. The pieces add up to the whole text scrubbed.
 */
export class StreamScrubber {
  private pending = "";

  constructor(private readonly scrubber: SecretScrubber) {}

  /** The scrubbed text safe to show after this piece ("" while all of it is held back). */
  push(text: string): string {
    this.pending += text;
    const cut = this.scrubber.safeLength(this.pending);
    if (cut === 0) return "";
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.scrubber.scrub(ready);
  }

  /** What was held back, scrubbed: the stream has ended. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    return rest === "" ? "" : this.scrubber.scrub(rest);
  }
}

/**
 * A model's stream with the scrubber's secrets replaced: text and reasoning deltas, tool call argument deltas and the
 * final message (text, reasoning and tool call inputs). What was held back goes out just before `message_done`.
 */
export async function* scrubModelStream(
  chunks: AsyncIterable<ModelChunk>,
  scrubber: SecretScrubber,
): AsyncGenerator<ModelChunk> {
  const text = new StreamScrubber(scrubber);
  const reasoning = new StreamScrubber(scrubber);
  const toolArguments = new Map<number, StreamScrubber>();
  for await (const chunk of chunks) {
    if (chunk.type === "text_delta") yield* delta("text_delta", text.push(chunk.text));
    else if (chunk.type === "reasoning_delta") yield* delta("reasoning_delta", reasoning.push(chunk.text));
    else if (chunk.type === "tool_call_delta") yield scrubToolCallDelta(chunk, toolArguments, scrubber);
    else {
      yield* delta("text_delta", text.end());
      yield* delta("reasoning_delta", reasoning.end());
      for (const [index, held] of toolArguments) {
        const rest = held.end();
        if (rest !== "") yield { type: "tool_call_delta", index, argumentsDelta: rest };
      }
      yield { ...chunk, message: scrubber.scrubValue(chunk.message) };
    }
  }
}

function* delta(type: "text_delta" | "reasoning_delta", text: string): Generator<ModelChunk> {
  if (text !== "") yield { type, text };
}

function scrubToolCallDelta(
  chunk: Extract<ModelChunk, { type: "tool_call_delta" }>,
  held: Map<number, StreamScrubber>,
  scrubber: SecretScrubber,
): ModelChunk {
  if (chunk.argumentsDelta === undefined) return chunk;
  let stream = held.get(chunk.index);
  if (!stream) held.set(chunk.index, (stream = new StreamScrubber(scrubber)));
  return { ...chunk, argumentsDelta: stream.push(chunk.argumentsDelta) };
}
