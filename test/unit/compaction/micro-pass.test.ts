import { describe, expect, it } from "vitest";
import { microPass } from "../../../src/kernel/compaction/passes/micro-pass.js";
import { spillMarker } from "../../../src/kernel/compaction/passes/spill-marker.js";
import { toolResultBlock, userMessage } from "../../../src/kernel/vocabulary/messages.js";
import { bodyOf, resultOf } from "./fixtures.js";

const PLACEHOLDER = "[tool result omitted to save context]";

describe("microPass", () => {
  it("blanks tool results older than the most recent keepRecent (default 3)", () => {
    const messages = ["a", "b", "c", "d", "e"].map((id) => resultOf(id, `body-${id}`));
    const out = microPass().apply(messages);
    expect(out.map(bodyOf)).toEqual([PLACEHOLDER, PLACEHOLDER, "body-c", "body-d", "body-e"]);
    expect(out[0]?.content).toMatchObject([{ type: "tool_result", id: "a" }]);
    expect(out[4]).toBe(messages[4]);
    expect(bodyOf(messages[0])).toBe("body-a");
  });

  it("returns the same array when there are no more than keepRecent results", () => {
    const messages = [resultOf("a", "x"), resultOf("b", "y")];
    expect(microPass({ keepRecent: 2 }).apply(messages)).toBe(messages);
  });

  it("returns the same array when the old results are already blanked", () => {
    const messages = [resultOf("a", PLACEHOLDER), resultOf("b", "y")];
    expect(microPass({ keepRecent: 1 }).apply(messages)).toBe(messages);
  });

  it("leaves spilled markers alone", () => {
    const marker = spillMarker("m1", 100);
    const messages = [resultOf("a", marker), resultOf("b", "old"), resultOf("c", "new")];
    const out = microPass({ keepRecent: 1, placeholder: "[gone]" }).apply(messages);
    expect(out.map(bodyOf)).toEqual([marker, "[gone]", "new"]);
  });

  it("blanks tool results of one message independently", () => {
    const messages = [userMessage([toolResultBlock("a", "1"), toolResultBlock("b", "2")])];
    const out = microPass({ keepRecent: 1 }).apply(messages);
    expect(out[0]?.content).toEqual([
      { type: "tool_result", id: "a", content: PLACEHOLDER },
      { type: "tool_result", id: "b", content: "2" },
    ]);
  });
});
