import { afterEach, describe, expect, it, vi } from "vitest";
import type { StreamEntry } from "../../../src/contract/stream/stream-entry.js";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { mergeExternalDeltas, type MergeInput } from "../../../src/client/events/external-delta-merge.js";

let offset = 0;
const event = (wire: WireEvent): MergeInput => ({
  kind: "event",
  item: { topic: "events", offset: offset++, entry: { runId: "r", event: wire } as StreamEntry },
});
const usage = { inputTokens: 1, outputTokens: 1 };

/** A finished run of `calls` successful model calls whose live output (and end markers) is no longer kept. */
function oldRun(calls: number): MergeInput[] {
  const inputs: MergeInput[] = [];
  for (let turn = 1; turn <= calls; turn++) {
    inputs.push(event({ type: "turn_start", turn }));
    inputs.push(event({ type: "model_call_start", turn, model: "m" }));
    inputs.push(event({ type: "model_call_end", turn, model: "m", durationMs: 1, usage }));
  }
  const result = { messages: [], text: "done", usage, stopReason: "stop" as const };
  inputs.push(event({ type: "done", reason: "stop", result }));
  return inputs;
}

async function* inOrder(inputs: MergeInput[]): AsyncGenerator<MergeInput> {
  yield* inputs;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a reader far behind the session (the workflow keeps only the newest calls' live output)", () => {
  it("gets every event of the readStream source at once: no model_call_end waits for an end marker that cannot come", async () => {
    vi.useFakeTimers();
    offset = 0;
    const seen: string[] = [];
    const merged = mergeExternalDeltas(
      { ordered: inOrder(oldRun(50)), stop: async () => undefined },
      "r",
      false,
    );
    const reading = (async () => {
      for await (const item of merged) seen.push(item.type);
    })();
    // No clock moves: a merge that waited for a marker (up to 5 s a call) would still hold the first call's end.
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.filter((type) => type === "model_call_end")).toHaveLength(50);
    expect(seen.at(-1)).toBe("done");
    await reading;
  });

  it("a separate transport's end marker may come after the event, so there a model_call_end waits for it", async () => {
    vi.useFakeTimers();
    offset = 0;
    const seen: string[] = [];
    const events = (async function* () {
      for (const input of oldRun(1)) if (input.kind === "event") yield input.item;
    })();
    const merged = mergeExternalDeltas(
      { items: events, readDeltas: () => inOrder([]) as never, stop: async () => undefined },
      "r",
      false,
    );
    const reading = (async () => {
      for await (const item of merged) seen.push(item.type);
    })();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["turn_start", "model_call_start"]);
    // It gives up on a lost marker after 5 s and shows the rest.
    await vi.advanceTimersByTimeAsync(5_200);
    await reading;
    expect(seen).toEqual(["turn_start", "model_call_start", "model_call_end", "done"]);
  });
});

describe("what the merge passes on besides the run's own events", () => {
  it("an events_lost range reaches the reader whatever run it held; a tool's event keeps its id", async () => {
    offset = 0;
    const lost: MergeInput = {
      kind: "event",
      item: {
        topic: "events",
        offset: 9,
        entry: { runId: "", event: { type: "events_lost", from: 3, to: 10 } },
      },
    };
    const note: WireEvent = { type: "diagnostic", level: "info", code: "step", message: "a" };
    const toolEvent: MergeInput = {
      kind: "event",
      item: { topic: "events", offset: 10, entry: { runId: "r", event: note }, deltaId: "k|tool|1" },
    };
    const other: MergeInput = {
      kind: "event",
      item: { topic: "events", offset: 10, entry: { runId: "other", event: note } },
    };
    offset = 11;
    const merged = mergeExternalDeltas(
      { ordered: inOrder([lost, other, toolEvent, ...oldRun(1)]), stop: async () => undefined },
      "r",
      false,
    );
    const seen = [];
    for await (const item of merged) seen.push(item);
    expect(seen[0]).toMatchObject({ type: "events_lost", from: 3, to: 10, offset: 9, runId: "r" });
    expect(seen[1]).toMatchObject({ type: "diagnostic", offset: 10, deltaId: "k|tool|1" });
    expect(seen.slice(2).map((item) => item.deltaId)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
