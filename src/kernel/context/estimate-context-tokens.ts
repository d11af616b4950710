import type { ContentBlock, Message } from "../vocabulary/messages.js";
import type { ToolSpec } from "../vocabulary/tools.js";

/**
 * About chars/4 over what a provider is sent: text, tool-call names and JSON inputs, tool-result content,
 * compaction and native blocks, plus the system prompt and tool specs. Reasoning is never sent back and images
 * have no meaningful character count, so both count as zero.
 */
export function estimateContextTokens(
  messages: readonly Message[],
  prefix?: { system?: string; tools?: ToolSpec[] },
): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  if (prefix?.system) chars += prefix.system.length;
  if (prefix?.tools && prefix.tools.length > 0) chars += JSON.stringify(prefix.tools).length;
  return Math.ceil(chars / 4);
}

function messageChars(message: Message): number {
  if (typeof message.content === "string") return message.content.length;
  let chars = 0;
  for (const block of message.content) chars += blockChars(block);
  return chars;
}

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "tool_call":
      return block.name.length + (JSON.stringify(block.input ?? null)?.length ?? 0);
    case "tool_result":
      return block.content.length;
    case "compaction":
      return block.content?.length ?? 0;
    case "native":
      return JSON.stringify(block.data ?? null)?.length ?? 0;
    default:
      return 0;
  }
}
