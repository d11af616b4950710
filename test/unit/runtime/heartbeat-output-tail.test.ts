import { describe, expect, it } from "vitest";
import type { StreamEntry } from "../../../src/contract/stream/stream-entry.js";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import type { DurableEvent } from "../../../src/client/events/run-event-stream.js";
import { mergeExternalDeltas, type MergeInput } from "../../../src/client/events/external-delta-merge.js";
import type { StreamDelta } from "../../../src/contract/stream/stream-delta.js";

// Heartbeat details go with the model activity once it completes, so a reader's last describe usually misses the end
// of a call's output. The merge shows that tail from the call's durable message, before the call's end: the live
// output of every call is whole, in order, and shown once.

const usage = { inputTokens: 1, outputTokens: 1 };

function session() {
  let offset = 0;
  const entry = (wire: WireEvent, extra: Partial<StreamEntry> = {}): MergeInput => ({
    kind: "event",
    item: { topic: "events", offset: offset++, entry: { runId: "r", event: wire, ...extra } as StreamEntry },
  });
  const delta = (kind: StreamDelta["kind"], at: number, text: string): MergeInput => ({
    kind: "delta",
    id: `r:1|${kind}|${at + text.length}`,
    delta: { key: "r:1", attempt: 1, kind, at, text },
  });
  const call = (answer: { text: string; reasoning: string }, seen: MergeInput[]): MergeInput[] => [
    entry({ type: "turn_start", turn: 1 }),
    entry({ type: "model_call_start", turn: 1, model: "m" }, { modelCall: 1, liveOutput: "session" }),
    ...seen,
    entry(
      { type: "model_call_end", turn: 1, model: "m", durationMs: 1, usage },
      { modelCall: 1, liveOutput: "session" },
    ),
    entry({
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: answer.reasoning },
          { type: "text", text: answer.text },
        ],
      },
    } as WireEvent),
    entry({
      type: "done",
      reason: "stop",
      result: { messages: [], text: answer.text, usage, stopReason: "stop" },
    } as WireEvent),
  ];
  return { entry, delta, call };
}

async function read(inputs: MergeInput[], resumedAt?: string): Promise<DurableEvent[]> {
  const seen: DurableEvent[] = [];
  const ordered = (async function* () {
    yield* inputs;
  })();
  const merged = mergeExternalDeltas(
    { ordered, stop: async () => undefined },
    "r",
    resumedAt !== undefined,
    resumedAt,
  );
  for await (const event of merged) seen.push(event);
  return seen;
}

const live = (events: DurableEvent[], type: "text_delta" | "reasoning_delta") =>
  events.flatMap((event) => (event.type === type ? [event.text] : [])).join("");

describe("the end of a call's heartbeat output, which no describe can read once the activity completed", () => {
  it("shows from the call's message before the call's end: the live text and reasoning are whole", async () => {
    const { delta, call } = session();
    const answer = { text: "Hello, durable world.", reasoning: "Think first." };
    const events = await read(call(answer, [delta("reasoning", 0, "Think"), delta("text", 0, "Hello, dur")]));
    expect(live(events, "text_delta")).toBe(answer.text);
    expect(live(events, "reasoning_delta")).toBe(answer.reasoning);
    const types = events.map((event) => event.type);
    const lastDelta = types.lastIndexOf("text_delta");
    expect(lastDelta).toBeLessThan(types.indexOf("model_call_end"));
    // The tail says where it ends, as a live piece would: a reader resuming after it shows nothing of it again.
    expect(events[lastDelta]?.deltaId).toBe(`r:1|text|${answer.text.length}`);
  });

  it("a call whose output no describe saw shows whole from its message, once", async () => {
    const { call } = session();
    const events = await read(call({ text: "All of it.", reasoning: "" }, []));
    expect(events.filter((event) => event.type === "text_delta")).toHaveLength(1);
    expect(live(events, "text_delta")).toBe("All of it.");
  });

  it("a reader resumed in the middle of the call shows only what goes beyond what it saw before", async () => {
    const { call } = session();
    const events = await read(call({ text: "Hello, durable world.", reasoning: "" }, []), "r:1|text|7");
    expect(live(events, "text_delta")).toBe("durable world.");
  });

  it("shows nothing from the message when the live text is not where it begins (a middleware changed it)", async () => {
    const { delta, call } = session();
    const events = await read(
      call({ text: "Rewritten answer.", reasoning: "" }, [delta("text", 0, "Hello")]),
    );
    expect(live(events, "text_delta")).toBe("Hello");
    expect(events.at(-1)?.type).toBe("done");
  });
});
