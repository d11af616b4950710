import { describe, expect, it } from "vitest";
import { repairSegmentPairs, repairToolPairs } from "../../../src/kernel/context/edits/repair-tool-pairs.js";
import { splitSegments } from "../../../src/kernel/context/edits/working-segments.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { assistant, call, result, user } from "./fixtures.js";

describe("repairToolPairs", () => {
  it("returns the same array when every call has its result", () => {
    const messages = [user("goal"), call("c1"), result("c1", "ok"), assistant("done")];
    expect(repairToolPairs(messages)).toBe(messages);
  });

  it("drops a call without a result and a result without a call, and empty messages", () => {
    const mixed: Message = {
      role: "assistant",
      content: [
        { type: "text", text: "two calls" },
        { type: "tool_call", id: "c2", name: "x", input: {} },
        { type: "tool_call", id: "c3", name: "x", input: {} },
      ],
    };
    const messages = [result("c0", "orphan"), user("goal"), mixed, result("c2", "ok")];
    expect(repairToolPairs(messages)).toEqual([
      user("goal"),
      { role: "assistant", content: [mixed.content[0], mixed.content[1]] },
      result("c2", "ok"),
    ]);
  });

  it("treats a result before its call as unpaired", () => {
    expect(repairToolPairs([result("c1", "early"), call("c1")])).toEqual([]);
  });

  it("repairs across segments and keeps consistent segments identical", () => {
    const segments = splitSegments([user("a"), call("c1"), result("c1", "ok"), user("b"), call("c2")]);
    const repaired = repairSegmentPairs(segments);
    expect(repaired[0]).toBe(segments[0]);
    expect(repaired[1]!.messages).toEqual([user("b")]);
  });
});
