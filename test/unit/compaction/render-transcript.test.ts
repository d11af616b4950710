import { describe, expect, it } from "vitest";
import { renderTranscript } from "../../../src/kernel/compaction/passes/render-transcript.js";
import {
  assistantMessage,
  toolCallBlock,
  toolResultBlock,
  userMessage,
} from "../../../src/kernel/vocabulary/messages.js";

describe("renderTranscript", () => {
  it("renders prompts, tool calls and tool results as labelled paragraphs, leaving out reasoning", () => {
    const transcript = renderTranscript([
      userMessage("read a.txt"),
      assistantMessage([
        { type: "reasoning", text: "secret" },
        toolCallBlock("c1", "read", { path: "a.txt" }),
      ]),
      userMessage([toolResultBlock("c1", "hello", true)]),
      assistantMessage([{ type: "reasoning", text: "only reasoning" }]),
    ]);
    expect(transcript).toBe(
      [
        "User: read a.txt",
        'Assistant: [called read (c1) with {"path":"a.txt"}]',
        "Tool: [result of c1 (error)] hello",
      ].join("\n\n"),
    );
  });
});
