import { describe, expect, it } from "vitest";
import * as messages from "../../../src/kernel/vocabulary/messages.js";
import * as builders from "../../../src/testing/builders.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

describe("testing builders", () => {
  it("textTurn streams and returns the same text, with optional usage", () => {
    expect(textTurn("hi")).toEqual({
      text: "hi",
      message: { role: "assistant", content: [{ type: "text", text: "hi" }] },
    });
    expect(textTurn("hi", { inputTokens: 1, outputTokens: 2 }).usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
    });
  });

  it("toolCallTurn puts the text first and numbers missing ids by position", () => {
    const turn = toolCallTurn(
      [
        { name: "a", input: { x: 1 } },
        { name: "b", input: 2, id: "keep" },
      ],
      "Calling.",
    );

    expect(turn).toEqual({
      text: "Calling.",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Calling." },
          { type: "tool_call", id: "call_0", name: "a", input: { x: 1 } },
          { type: "tool_call", id: "keep", name: "b", input: 2 },
        ],
      },
    });
    expect(toolCallTurn([{ name: "a", input: {} }]).text).toBeUndefined();
  });

  it("re-exports the message builders", () => {
    for (const name of [
      "textBlock",
      "toolCallBlock",
      "toolResultBlock",
      "userMessage",
      "assistantMessage",
    ] as const) {
      expect(builders[name]).toBe(messages[name]);
    }
  });
});
