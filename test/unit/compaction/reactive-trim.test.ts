import { describe, expect, it } from "vitest";
import { reactiveTrim } from "../../../src/kernel/compaction/passes/reactive-trim.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { prompt, toolTurn } from "./fixtures.js";

const turns = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => toolTurn(`q${i}`, `c${i}`, `r${i}`)).flat();

describe("reactiveTrim", () => {
  it("keeps the newest keepTurns (default 2) turns behind a note, head included in the drop", () => {
    const messages = turns(5);
    expect(reactiveTrim(messages)).toEqual([
      prompt("[3 earlier turn(s) dropped — context overflow]"),
      ...messages.slice(9),
    ]);
  });

  it("stops adding turns at the token budget but always keeps the newest one", () => {
    const big = (i: number) => prompt(`${i}`.repeat(400)); // 100 tokens each
    const messages = [big(1), big(2), big(3)];
    expect(reactiveTrim(messages, { keepTurns: 3, tokenBudget: 150 })).toEqual([
      prompt("[2 earlier turn(s) dropped — context overflow]"),
      big(3),
    ]);
    expect(reactiveTrim(messages, { keepTurns: 3, tokenBudget: 10 })).toHaveLength(2);
  });

  it("returns the same array when nothing can be dropped", () => {
    const messages = turns(2);
    expect(reactiveTrim(messages)).toBe(messages);
  });
});
