import { describe, expect, it, vi } from "vitest";
import type { StreamEntry } from "../../../src/contract/stream/stream-entry.js";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { mergeExternalDeltas } from "../../../src/client/events/external-delta-merge.js";
import type { SessionStreamItem } from "../../../src/client/events/run-event-stream.js";
import type { StreamDelta } from "../../../src/contract/stream/stream-delta.js";

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** A source that yields its items with the given delays before each. */
async function* timed<T>(items: [number, T][]): AsyncGenerator<T> {
  for (const [delay, item] of items) {
    await tick(delay);
    yield item;
  }
}

let offset = 0;
const event = (wire: WireEvent): SessionStreamItem => ({
  topic: "events",
  offset: offset++,
  entry: { runId: "r", event: wire } as StreamEntry,
});
const delta = (call: number, text: string, at: number, end = false) => ({
  id: `${call}-${at}-${end}`,
  delta: {
    key: `r:${call}`,
    attempt: 1,
    kind: "text" as const,
    at,
    text,
    ...(end ? { end } : {}),
  } satisfies StreamDelta,
});
const usage = { inputTokens: 1, outputTokens: 1 };

describe("merging Redis deltas with the workflow's events", () => {
  it("holds the next call's deltas until its own model_call_start, even when the workflow's events lag behind", async () => {
    offset = 0;
    // The events arrive late: call 2's deltas (and end marker) are read before model_call_end of call 1.
    const events = timed<SessionStreamItem>([
      [0, event({ type: "turn_start", turn: 1 })],
      [0, event({ type: "model_call_start", turn: 1, model: "m" })],
      [60, event({ type: "model_call_end", turn: 1, model: "m", durationMs: 1, usage })],
      [0, event({ type: "turn_start", turn: 2 })],
      [0, event({ type: "model_call_start", turn: 2, model: "m" })],
      [0, event({ type: "model_call_end", turn: 2, model: "m", durationMs: 1, usage })],
      [
        0,
        event({
          type: "done",
          reason: "stop",
          result: { messages: [], text: "hello", usage, stopReason: "stop" },
        }),
      ],
    ]);
    const deltas = timed([
      [5, delta(1, "", 0, true)],
      [5, delta(2, "hel", 0)],
      [5, delta(2, "lo", 3)],
      [5, delta(2, "", 5, true)],
    ]);
    const seen: string[] = [];
    const merged = mergeExternalDeltas(
      { items: events, readDeltas: () => deltas, stop: async () => undefined },
      "r",
      false,
    );
    for await (const item of merged) seen.push(item.type === "text_delta" ? `text:${item.text}` : item.type);
    expect(seen).toEqual([
      "turn_start",
      "model_call_start",
      "model_call_end",
      "turn_start",
      "model_call_start",
      "text:hel",
      "text:lo",
      "model_call_end",
      "done",
    ]);
  });

  it("a model_call_end waits for its call's end marker, so no text follows the call that produced it", async () => {
    offset = 0;
    const events = timed<SessionStreamItem>([
      [0, event({ type: "model_call_start", turn: 1, model: "m" })],
      [0, event({ type: "model_call_end", turn: 1, model: "m", durationMs: 1, usage })],
      [
        0,
        event({
          type: "done",
          reason: "stop",
          result: { messages: [], text: "abc", usage, stopReason: "stop" },
        }),
      ],
    ]);
    const deltas = timed([
      [40, delta(1, "ab", 0)],
      [20, delta(1, "c", 2)],
      [5, delta(1, "", 3, true)],
    ]);
    const seen: string[] = [];
    for await (const item of mergeExternalDeltas(
      { items: events, readDeltas: () => deltas, stop: async () => undefined },
      "r",
      false,
    )) {
      seen.push(item.type === "text_delta" ? `text:${item.text}` : item.type);
    }
    expect(seen).toEqual(["model_call_start", "text:ab", "text:c", "model_call_end", "done"]);
  });

  it.each([
    { mark: false as const, why: "streams no live output (a buffering codec, a worker without live output)" },
    {
      mark: "session" as const,
      why: "streamed its live output through the session (a Temporal-transport worker)",
    },
  ])("a call that $why ends without waiting for an end marker", async ({ mark }) => {
    offset = 0;
    // Timers are frozen: a model_call_end that waited for a marker (re-checked on a timer) would never be shown.
    vi.useFakeTimers();
    try {
      const silent = (wire: WireEvent, modelCall: number): SessionStreamItem => {
        const item = event(wire);
        return { ...item, entry: { ...item.entry, modelCall, liveOutput: mark } as StreamEntry };
      };
      async function* events(): AsyncGenerator<SessionStreamItem> {
        yield silent({ type: "model_call_start", turn: 1, model: "m" }, 1);
        yield silent({ type: "model_call_end", turn: 1, model: "m", durationMs: 1, usage }, 1);
        yield silent({ type: "model_call_start", turn: 2, model: "m" }, 2);
        yield silent({ type: "model_call_end", turn: 2, model: "m", durationMs: 1, usage }, 2);
        yield event({
          type: "done",
          reason: "stop",
          result: { messages: [], text: "{}", usage, stopReason: "stop" },
        });
      }
      // The transport has nothing for these calls, and never will.
      async function* nothing(signal: AbortSignal): AsyncGenerator<{ id: string; delta: StreamDelta }> {
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        yield* [];
      }
      const seen: string[] = [];
      for await (const item of mergeExternalDeltas(
        { items: events(), readDeltas: nothing, stop: async () => undefined },
        "r",
        false,
      ))
        seen.push(item.type);
      expect(seen).toEqual([
        "model_call_start",
        "model_call_end",
        "model_call_start",
        "model_call_end",
        "done",
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
