import { describe, expect, it } from "vitest";
import { parseApprovalReply, parseQuestionReply } from "../../../src/terminal/human-replies.js";

describe("parseApprovalReply", () => {
  it("reads yes and no in their usual spellings, with an optional reason", () => {
    expect(parseApprovalReply("y")).toEqual({ decision: "allow" });
    expect(parseApprovalReply(" YES ")).toEqual({ decision: "allow" });
    expect(parseApprovalReply("allow since it is a test")).toEqual({
      decision: "allow",
      reason: "since it is a test",
    });
    expect(parseApprovalReply("n not on a Friday")).toEqual({ decision: "deny", reason: "not on a Friday" });
    expect(parseApprovalReply("deny")).toEqual({ decision: "deny" });
  });

  it("asks again for anything else", () => {
    for (const reply of ["", "maybe", "yess", "nope", "ny"])
      expect(parseApprovalReply(reply)).toBeUndefined();
  });
});

describe("parseQuestionReply", () => {
  const colours = { question: "Which colour?", options: ["Red", "Blue", "Green"] };

  it("selects options by number or by name, case-insensitively", () => {
    expect(parseQuestionReply("2", colours)).toEqual({ selected: ["Blue"] });
    expect(parseQuestionReply("green", colours)).toEqual({ selected: ["Green"] });
  });

  it("selects several only when the question allows it", () => {
    expect(parseQuestionReply("1, 3", { ...colours, multiSelect: true })).toEqual({
      selected: ["Red", "Green"],
    });
    expect(parseQuestionReply("1,3", colours)).toBeUndefined();
  });

  it("takes anything else as free text, and asks again when empty", () => {
    expect(parseQuestionReply("a dark purple", colours)).toEqual({ text: "a dark purple" });
    expect(parseQuestionReply("7", colours)).toEqual({ text: "7" });
    expect(parseQuestionReply("  42 ", { question: "How many?" })).toEqual({ text: "42" });
    expect(parseQuestionReply("   ", colours)).toBeUndefined();
  });
});
