import type { ContentBlock, Message, ToolCallBlock, ToolResultBlock } from "../vocabulary/messages.js";

/** How a prompt codec writes past tool calls and tool results as plain text. */
export interface PromptHistoryRenderers {
  /** The assistant's turn: its text (may be empty) and the calls it made (at least one). */
  calls(text: string, calls: ToolCallBlock[]): string;
  /** The results of one tool phase (at least one). */
  results(results: ToolResultBlock[]): string;
}

/**
 * Rewrites a history for a model without a tool API: assistant tool calls become the codec's call text, other
 * assistant messages keep only their text, tool results become user text after the message's own (images kept).
 * Provider-specific blocks (reasoning, native, compaction) never go back; string contents pass unchanged.
 */
export function renderPromptHistory(messages: Message[], render: PromptHistoryRenderers): Message[] {
  return messages.map((message): Message => {
    if (typeof message.content === "string") return message;
    if (message.role === "assistant") return renderAssistant(message.content, render);
    if (message.role === "system") return message;
    return renderUser(message.content, render);
  });
}

function textOf(blocks: ContentBlock[]): string {
  return blocks.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function renderAssistant(blocks: ContentBlock[], render: PromptHistoryRenderers): Message {
  const calls = blocks.filter((block): block is ToolCallBlock => block.type === "tool_call");
  const text = textOf(blocks);
  return { role: "assistant", content: calls.length ? render.calls(text, calls) : text };
}

function renderUser(blocks: ContentBlock[], render: PromptHistoryRenderers): Message {
  const results = blocks.filter((block): block is ToolResultBlock => block.type === "tool_result");
  const rendered = results.length ? render.results(results) : "";
  const images = blocks.filter((block) => block.type === "image");
  const text = [textOf(blocks), rendered].filter(Boolean).join("\n");
  if (images.length === 0) return { role: "user", content: text };
  // A multimodal model must still see the images; a text-only one gets the text first either way.
  return { role: "user", content: text ? [{ type: "text", text }, ...images] : images };
}
