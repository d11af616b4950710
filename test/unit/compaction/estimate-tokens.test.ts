import { describe, expect, it } from "vitest";
import { estimateTokens, IMAGE_TOKEN_ESTIMATE } from "../../../src/kernel/compaction/estimate-tokens.js";
import { assistantMessage, toolCallBlock, type Message } from "../../../src/kernel/vocabulary/messages.js";
import { callOf, prompt, resultOf } from "./fixtures.js";

describe("estimateTokens", () => {
  it("counts string content as chars / 4, rounded up", () => {
    expect(estimateTokens([prompt("12345678")])).toBe(2);
    expect(estimateTokens([prompt("123456789")])).toBe(3);
    expect(estimateTokens([])).toBe(0);
  });

  it("counts text blocks, tool-result bodies and the JSON of tool inputs", () => {
    const input = { path: "a.txt" };
    const messages: Message[] = [
      { role: "assistant", content: [{ type: "text", text: "abcd" }] },
      callOf("c1", input),
      resultOf("c1", "x".repeat(8)),
    ];
    expect(estimateTokens(messages)).toBe(Math.ceil((4 + JSON.stringify(input).length + 8) / 4));
  });

  it("counts a fixed cost per image and ignores reasoning and native blocks", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "image", mimeType: "image/png", data: "A".repeat(100_000) }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "r".repeat(400) },
          { type: "native", provider: "p", data: { big: "n".repeat(400) } },
        ],
      },
    ];
    expect(estimateTokens(messages)).toBe(IMAGE_TOKEN_ESTIMATE);
  });

  it("treats a tool call without input as weightless", () => {
    expect(estimateTokens([assistantMessage([toolCallBlock("c1", "f", undefined)])])).toBe(0);
  });
});
