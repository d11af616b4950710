import { describe, expect, it } from "vitest";
import {
  extractFacts,
  pinnedFactsMessage,
  PINNED_FACTS_HEADER,
} from "../../../src/kernel/context/edits/pinned-facts.js";
import { assistant, user } from "./fixtures.js";

describe("extractFacts", () => {
  it("pins the first user message as the goal and matching sentences of later ones", () => {
    const facts = extractFacts([
      user("Build a CLI. It should be fast."),
      assistant("You must do X."),
      user("Looks good. Do not add dependencies! The objective is zero config.\nAlso, thanks."),
      user("所有输出必须使用中文。谢谢。禁止删除文件"),
    ]);
    expect(facts).toEqual([
      { kind: "goal", text: "Build a CLI. It should be fast." },
      { kind: "constraint", text: "Do not add dependencies!" },
      { kind: "goal", text: "The objective is zero config." },
      { kind: "constraint", text: "所有输出必须使用中文。" },
      { kind: "constraint", text: "禁止删除文件" },
    ]);
  });

  it("skips injected notes and tool results, and dedupes against known facts", () => {
    const facts = extractFacts(
      [
        user("<system-reminder>You must always reply.</system-reminder>"),
        user("Write docs."),
        { role: "user", content: [{ type: "tool_result", id: "c", content: "never" }] },
        user("Never use tabs."),
      ],
      [{ kind: "constraint", text: "Never use tabs." }],
    );
    expect(facts).toEqual([
      { kind: "constraint", text: "Never use tabs." },
      { kind: "goal", text: "Write docs." },
    ]);
  });

  it("does not pin a second goal when a restored goal exists", () => {
    const facts = extractFacts([user("summary of earlier work")], [{ kind: "goal", text: "Ship v2." }]);
    expect(facts).toEqual([{ kind: "goal", text: "Ship v2." }]);
  });
});

describe("pinnedFactsMessage", () => {
  it("renders one line per fact under the header", () => {
    expect(pinnedFactsMessage([{ kind: "goal", text: "g" }]).content).toBe(
      `${PINNED_FACTS_HEADER}\n- goal: g`,
    );
    expect(pinnedFactsMessage([]).content).toBe(`${PINNED_FACTS_HEADER}\n(none)`);
  });
});
