import { describe, expect, it } from "vitest";
import type { ToolEventBatch } from "../../../src/common/tool-event-batch.js";
import type { WireEvent } from "../../../src/common/wire-event.js";
import { ToolEventPublisher } from "../../../src/stream/tool-event-publisher.js";

const note = (n: number): WireEvent => ({ type: "diagnostic", level: "info", code: "t", message: `${n}` });
const origin = { key: "k", runId: "r", attempt: 1 };

describe("ToolEventPublisher", () => {
  it("sends events in order in batches and says where each batch starts", async () => {
    const sent: ToolEventBatch[] = [];
    const publisher = new ToolEventPublisher(async (b) => void sent.push(b), origin, { batchMs: 1 });
    publisher.push(note(0));
    publisher.push(note(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    publisher.push(note(2));
    expect(await publisher.end()).toBe(true);
    expect(sent.map((b) => b.at)).toEqual([0, 2]);
    expect(sent.flatMap((b) => b.events)).toEqual([0, 1, 2].map(note));
  });

  it("sends a failed batch again from the same place, and end() gives up at its deadline", async () => {
    const sent: ToolEventBatch[] = [];
    let failures = 1;
    const flaky = async (b: ToolEventBatch) => {
      if (failures-- > 0) throw new Error("down");
      sent.push(b);
    };
    const publisher = new ToolEventPublisher(flaky, origin, { batchMs: 1, retryMs: 1 });
    publisher.push(note(0));
    expect(await publisher.end()).toBe(true);
    expect(sent).toEqual([{ ...origin, at: 0, events: [note(0)] }]);
    const stuck = new ToolEventPublisher(() => new Promise(() => undefined), origin, { endDeadlineMs: 10 });
    stuck.push(note(0));
    expect(await stuck.end()).toBe(false);
  });
});
