import { describe, expect, it } from "vitest";
import { snipPass } from "../../../src/kernel/compaction/passes/snip-pass.js";
import { splitTurns } from "../../../src/kernel/compaction/passes/split-turns.js";
import { prompt, toolTurn } from "./fixtures.js";

const turns = (n: number) => Array.from({ length: n }, (_, i) => toolTurn(`q${i}`, `c${i}`, `r${i}`)).flat();

describe("snipPass", () => {
  it("returns the same array when the conversation is within maxMessages", () => {
    const messages = turns(3);
    expect(snipPass({ maxMessages: 9 }).apply(messages)).toBe(messages);
  });

  it("drops whole middle turns behind a note, keeping head turns and enough tail messages", () => {
    const messages = turns(6); // 18 messages, 3 per turn
    const out = snipPass({ maxMessages: 10, headTurns: 1, tailKeep: 4 }).apply(messages);
    // tailKeep 4 needs two 3-message turns; head 1; so 3 middle turns go.
    expect(out).toEqual([
      ...messages.slice(0, 3),
      prompt("[3 earlier turn(s) omitted to save context]"),
      ...messages.slice(12),
    ]);
  });

  it("never separates a tool call from its result", () => {
    const out = snipPass({ maxMessages: 5, headTurns: 1, tailKeep: 1 }).apply(turns(5));
    for (const turn of splitTurns(out)) {
      const hasCall = turn.some((m) => m.role === "assistant");
      const hasResult = turn.some((m) => Array.isArray(m.content) && m.content[0]?.type === "tool_result");
      expect(hasCall).toBe(hasResult);
    }
  });

  it("returns the same array when head and tail already cover every turn", () => {
    const messages = turns(3);
    expect(snipPass({ maxMessages: 2, headTurns: 1, tailKeep: 6 }).apply(messages)).toBe(messages);
  });

  it("uses the defaults maxMessages 50, headTurns 1, tailKeep 20", () => {
    const within = turns(16); // 48 messages
    expect(snipPass().apply(within)).toBe(within);
    const over = turns(20); // 60 messages: keep 1 head turn + 7 tail turns (21 messages)
    const out = snipPass().apply(over);
    expect(out[3]).toEqual(prompt("[12 earlier turn(s) omitted to save context]"));
    expect(out).toHaveLength(3 + 1 + 21);
  });
});
