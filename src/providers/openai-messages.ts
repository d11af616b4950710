import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import type {
  ContentBlock,
  ImageBlock,
  Message,
  TextBlock,
  ToolCallBlock,
} from "../kernel/vocabulary/messages.js";

/**
 * Writes a conversation as Chat Completions messages: the system prompt first; tool results (kept in user messages)
 * become `role: "tool"` messages right after the calling assistant message, the rest of that user message following
 * separately. Reasoning, native and compaction blocks are never sent (providers reject or mis-bill them).
 */
export function toOpenAIMessages(
  system: string | undefined,
  messages: readonly Message[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const message of messages) out.push(...toOpenAIMessage(message));
  return out;
}

function toOpenAIMessage(message: Message): ChatCompletionMessageParam[] {
  if (typeof message.content === "string") {
    if (message.role === "assistant" || message.role === "system") {
      return [{ role: message.role, content: message.content }];
    }
    return [{ role: "user", content: message.content }];
  }
  if (message.role === "assistant") return [toAssistantMessage(message.content)];
  if (message.role === "system") return [{ role: "system", content: joinText(message.content) }];
  return toUserMessages(message.content);
}

function toAssistantMessage(blocks: readonly ContentBlock[]): ChatCompletionAssistantMessageParam {
  const text = joinText(blocks);
  const calls = blocks.filter((block): block is ToolCallBlock => block.type === "tool_call");
  if (calls.length === 0) return { role: "assistant", content: text };
  // OpenAI wants `content: null` beside tool calls when there is no text.
  return { role: "assistant", content: text === "" ? null : text, tool_calls: calls.map(toToolCall) };
}

function toToolCall(call: ToolCallBlock): ChatCompletionMessageToolCall {
  return {
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
  };
}

/** Tool messages first, then one user message with the text and images, if there are any. */
function toUserMessages(blocks: readonly ContentBlock[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const block of blocks) {
    if (block.type === "tool_result")
      out.push({ role: "tool", tool_call_id: block.id, content: block.content });
  }
  const parts = blocks.filter(
    (block): block is TextBlock | ImageBlock => block.type === "text" || block.type === "image",
  );
  const content = toUserContent(parts);
  if (content !== undefined) out.push({ role: "user", content });
  return out;
}

/** A lone text block goes as a plain string, which every compatible server accepts; anything else as parts. */
function toUserContent(
  parts: readonly (TextBlock | ImageBlock)[],
): string | ChatCompletionContentPart[] | undefined {
  const converted = parts.map(toContentPart).filter((part) => part !== undefined);
  if (converted.length === 0) return undefined;
  const [first] = converted;
  if (converted.length === 1 && first?.type === "text") return first.text;
  return converted;
}

function toContentPart(block: TextBlock | ImageBlock): ChatCompletionContentPart | undefined {
  if (block.type === "text") return { type: "text", text: block.text };
  const url = block.data !== undefined ? `data:${block.mimeType};base64,${block.data}` : block.url;
  return url === undefined ? undefined : { type: "image_url", image_url: { url } };
}

function joinText(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === "text" ? block.text : "")).join("");
}
