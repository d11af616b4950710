import { describe, expect, it } from "vitest";
import { defaultCompactor } from "../../../src/kernel/compaction/default-compactor.js";
import { memorySpillStore } from "../../../src/kernel/compaction/memory-spill-store.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { bodyOf, prompt, resultOf, toolTurn } from "./fixtures.js";

const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => toolTurn(`q${i}`, `c${i}`, `result-${i}-`.repeat(20))).flat();

describe("defaultCompactor", () => {
  it("snips then blanks old tool results, reporting kind micro and a token reduction", async () => {
    const messages = turns(6);
    const result = await defaultCompactor({
      maxMessages: 6,
      headTurns: 1,
      tailKeep: 3,
      keepRecentToolResults: 1,
    }).maybeCompact(messages, ZERO_USAGE);
    expect(result.kind).toBe("micro");
    expect(result.messages[3]).toEqual(prompt("[4 earlier turn(s) omitted to save context]"));
    expect(bodyOf(result.messages[2])).toBe("[tool result omitted to save context]");
    expect(bodyOf(result.messages[6])).toBe(bodyOf(messages[17]));
    expect(result.after!).toBeLessThan(result.before!);
  });

  it("returns the same array with equal before/after and no kind when nothing changes", async () => {
    const messages = [prompt("hi")];
    const result = await defaultCompactor().maybeCompact(messages, ZERO_USAGE);
    expect(result).toEqual({ messages, before: 1, after: 1 });
    expect(result.messages).toBe(messages);
  });

  it("runs the given passes instead of the default pipeline", async () => {
    const messages = turns(20);
    const result = await defaultCompactor({ passes: [{ name: "noop", apply: (m) => m }] }).maybeCompact(
      messages,
      ZERO_USAGE,
    );
    expect(result.messages).toBe(messages);
  });

  it("spills oversized tool results first when given a spill store", async () => {
    const store = memorySpillStore();
    const big = "x".repeat(300_000);
    const result = await defaultCompactor({ spillStore: store, budgetBytes: 200_000 }).maybeCompact(
      [prompt("q"), resultOf("a", big)],
      ZERO_USAGE,
    );
    expect(bodyOf(result.messages[1]).startsWith("[spilled:m1]")).toBe(true);
    expect(store.get("m1")).toBe(big);
    expect(result.kind).toBe("micro");
  });
});
