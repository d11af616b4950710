import type { Client } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import type { WireEvent } from "../../../src/contract/stream/wire-event.js";
import { Channel } from "../../../src/kernel/vocabulary/channel.js";
import type { MergeInput } from "../../../src/client/events/external-delta-merge.js";
import { withLostRunEnd } from "../../../src/client/events/run-event-stream.js";
import type { SessionStreamReader } from "../../../src/client/events/session-stream-reader.js";

const usage = { inputTokens: 1, outputTokens: 1 };
const entry = (offset: number, runId: string, event: WireEvent): MergeInput => ({
  kind: "event",
  item: { topic: "events", offset, entry: { runId, event } },
});
const lost = (from: number, to: number) => entry(to - 1, "", { type: "events_lost", from, to });

/** A session whose run `r` finished with "answer"; the reader's items are `inputs`, its log ends at `logEnd`. */
async function read(inputs: MergeInput[], logEnd: number): Promise<MergeInput[]> {
  const items = new Channel<MergeInput>();
  for (const input of inputs) items.push(input);
  items.close();
  const reader = { items, logEnd, sessionId: "s", failure: undefined } as unknown as SessionStreamReader;
  const summary = { runId: "r", stopReason: "stop", text: "answer", usage };
  const temporal = { workflow: { getHandle: () => ({ query: async () => summary }) } } as unknown as Client;
  const out: MergeInput[] = [];
  for await (const input of withLostRunEnd(temporal, reader, "r")) out.push(input);
  return out;
}

const described = (inputs: MergeInput[]) =>
  inputs.map((input) =>
    input.kind === "event" ? `${input.item.offset}:${input.item.entry.event.type}` : "delta",
  );

describe("a run whose events were lost (their history deleted)", () => {
  it("ends with a done from its summary when nothing of it follows the lost range", async () => {
    const out = await read([entry(2, "r", { type: "turn_start", turn: 1 }), lost(3, 10)], 10);
    expect(described(out)).toEqual(["2:turn_start", "9:events_lost", "9:done"]);
    const done = out.at(-1)!;
    expect(done.kind === "event" && done.item.entry).toMatchObject({
      runId: "r",
      event: { result: { text: "answer" } },
    });
  });

  it("ends so too when the next entry is another run's", async () => {
    const out = await read([lost(3, 10), entry(10, "next", { type: "turn_start", turn: 1 })], 11);
    expect(described(out)).toEqual(["9:events_lost", "9:done"]);
  });

  it("reads on to the run's own done when its events follow the lost range", async () => {
    const result = { messages: [], text: "answer", usage, stopReason: "stop" as const };
    const out = await read(
      [
        lost(3, 10),
        entry(10, "r", { type: "turn_end", turn: 3, stopReason: "stop" }),
        entry(11, "r", { type: "done", reason: "stop", result }),
      ],
      12,
    );
    expect(described(out)).toEqual(["9:events_lost", "10:turn_end", "11:done"]);
  });
});
