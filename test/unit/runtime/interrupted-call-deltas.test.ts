import { describe, expect, it } from "vitest";
import type { StreamEntry } from "../../../src/contract/stream/stream-entry.js";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { mergeExternalDeltas, type MergeInput } from "../../../src/client/events/external-delta-merge.js";
import type { StreamDelta } from "../../../src/contract/stream/stream-delta.js";

let offset = 0;
const event = (wire: WireEvent): MergeInput => ({
  kind: "event",
  item: { topic: "events", offset: offset++, entry: { runId: "r", event: wire } as StreamEntry },
});
const delta = (call: number, text: string, at: number): MergeInput => ({
  kind: "delta",
  id: `${call}-${at}`,
  delta: { key: `r:${call}`, attempt: 1, kind: "text", at, text } satisfies StreamDelta,
});
const usage = { inputTokens: 1, outputTokens: 1 };
const done = event({
  type: "done",
  reason: "stop",
  result: { messages: [], text: "quick answer", usage, stopReason: "stop" },
});

async function* inOrder(inputs: MergeInput[]): AsyncGenerator<MergeInput> {
  yield* inputs;
}

async function shown(inputs: MergeInput[]): Promise<string[]> {
  const seen: string[] = [];
  const merged = mergeExternalDeltas({ ordered: inOrder(inputs), stop: async () => undefined }, "r", false);
  for await (const item of merged) seen.push(item.type === "text_delta" ? `text:${item.text}` : item.type);
  return seen;
}

describe("an interrupted model call's late deltas", () => {
  it("never show after its end, so they cannot leak into the next call's text", async () => {
    offset = 0;
    const seen = await shown([
      event({ type: "model_call_start", turn: 1, model: "m" }),
      delta(1, "hmm ", 0),
      event({ type: "model_call_end", turn: 1, model: "m", durationMs: 1, error: "interrupted" }),
      // The cancelled activity streams on until it notices: before, during and after the next call.
      delta(1, "hmm ", 4),
      event({ type: "model_call_start", turn: 2, model: "m" }),
      delta(1, "hmm ", 8),
      delta(2, "quick ", 0),
      delta(1, "hmm ", 12),
      delta(2, "answer", 6),
      event({ type: "model_call_end", turn: 2, model: "m", durationMs: 1, error: "failed" }),
      delta(1, "hmm ", 16),
      done,
    ]);
    expect(seen).toEqual([
      "model_call_start",
      "text:hmm ",
      "model_call_end",
      "model_call_start",
      "text:quick ",
      "text:answer",
      "model_call_end",
      "done",
    ]);
  });
});
