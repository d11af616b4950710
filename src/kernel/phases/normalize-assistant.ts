import type { DecodedResponse } from "../codecs/types.js";
import { textBlock, type AssistantMessage, type ContentBlock } from "../vocabulary/messages.js";

/**
 * The canonical shape of a decoded assistant message: reasoning, then text, then the tool calls (with the
 * ids the codec assigned), then provider-native and compaction blocks, which must survive checkpoints.
 */
export function normalizeAssistant(raw: AssistantMessage, decoded: DecodedResponse): AssistantMessage {
  const blocks = typeof raw.content === "string" ? [] : raw.content;
  const content: ContentBlock[] = blocks.filter((block) => block.type === "reasoning");
  if (decoded.text !== "") content.push(textBlock(decoded.text));
  for (const call of decoded.calls)
    content.push({ type: "tool_call", id: call.id, name: call.name, input: call.input });
  content.push(...blocks.filter((block) => block.type === "native" || block.type === "compaction"));
  return { role: "assistant", content };
}
