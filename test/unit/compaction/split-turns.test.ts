import { describe, expect, it } from "vitest";
import { splitTurns } from "../../../src/kernel/compaction/passes/split-turns.js";
import { assistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import { callOf, prompt, resultOf, toolTurn } from "./fixtures.js";

describe("splitTurns", () => {
  it("starts a turn at each string user message and keeps tool results in their turn", () => {
    const first = toolTurn("q1", "c1", "r1");
    const second = [prompt("q2"), assistantMessage("done")];
    expect(splitTurns([...first, ...second])).toEqual([first, second]);
  });

  it("groups messages before the first user prompt as a head group", () => {
    const head = [assistantMessage("hello"), resultOf("c0", "orphan")];
    const turn = [prompt("q1"), callOf("c1")];
    expect(splitTurns([...head, ...turn])).toEqual([head, turn]);
  });

  it("returns no turns for no messages", () => {
    expect(splitTurns([])).toEqual([]);
  });
});
