import { describe, expect, it } from "vitest";
import { compaction } from "../../../src/kernel/compaction/compaction-middleware.js";
import { defaultCompactor } from "../../../src/kernel/compaction/default-compactor.js";
import type { Compactor } from "../../../src/kernel/compaction/types.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { ABORTED, fakeContext, prompt, toolTurn } from "./fixtures.js";

describe("compaction middleware", () => {
  it("replaces ctx.messages and emits a compaction event when the compactor changed them", async () => {
    const compacted = [prompt("[compacted]")];
    const compactor: Compactor = {
      maybeCompact: () => ({ messages: compacted, kind: "auto", before: 100, after: 5 }),
    };
    const { ctx, events } = fakeContext([prompt("a"), prompt("b")]);
    await compaction(compactor).beforeModel!(ctx);
    expect(ctx.messages).toBe(compacted);
    expect(events).toEqual([{ type: "compaction", kind: "auto", before: 100, after: 5 }]);
  });

  it("emits nothing and keeps ctx.messages when nothing changed", async () => {
    const messages = [prompt("hi")];
    const { ctx, events } = fakeContext(messages);
    await compaction(defaultCompactor()).beforeModel!(ctx);
    const copying: Compactor = {
      maybeCompact: (m) => ({ messages: [...m], kind: "micro", before: 1, after: 1 }),
    };
    await compaction(copying).beforeModel!(ctx);
    expect(ctx.messages).toBe(messages);
    expect(events).toEqual([]);
  });

  it("defaults kind to micro and estimates missing before/after", async () => {
    const messages: Message[] = [prompt("x".repeat(40))];
    const compactor: Compactor = { maybeCompact: () => ({ messages: [prompt("y".repeat(8))] }) };
    const { ctx, events } = fakeContext(messages);
    await compaction(compactor).beforeModel!(ctx);
    expect(events).toEqual([{ type: "compaction", kind: "micro", before: 10, after: 2 }]);
  });

  it("calls the compactor with ZERO_USAGE and the run's signal", async () => {
    const calls: unknown[][] = [];
    const compactor: Compactor = { maybeCompact: (...args) => (calls.push(args), { messages: args[0] }) };
    const messages = toolTurn("q", "c", "r");
    const { ctx } = fakeContext(messages, ABORTED);
    await compaction(compactor).beforeModel!(ctx);
    expect(calls).toEqual([[messages, ZERO_USAGE, undefined, ABORTED]]);
  });
});
