import type { ContentBlock, Message } from "../vocabulary/messages.js";

/**
 * The tokens one image is assumed to cost. Providers price images by their pixel size (roughly 85–1,600 tokens),
 * which the kernel does not know, so every image counts a flat 1,000 tokens: enough to make image-heavy histories
 * trigger compaction without pretending to be exact.
 */
export const IMAGE_TOKEN_ESTIMATE = 1_000;

/** Characters per token of the rough estimate. */
const CHARS_PER_TOKEN = 4;

/**
 * A rough token count (characters / 4) over what a provider is sent: text, tool-result content, tool-call input JSON
 * and provider compaction blocks, plus {@link IMAGE_TOKEN_ESTIMATE} per image. Reasoning and native blocks are not
 * counted (reasoning is never sent back; native blocks are opaque).
 */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) {
    if (typeof message.content === "string") {
      chars += message.content.length;
      continue;
    }
    for (const block of message.content) chars += blockChars(block);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The character weight of one content block. */
function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "tool_result":
      return block.content.length;
    case "tool_call":
      // JSON.stringify(undefined) is undefined: an argument-less call weighs nothing.
      return JSON.stringify(block.input)?.length ?? 0;
    case "image":
      return IMAGE_TOKEN_ESTIMATE * CHARS_PER_TOKEN;
    case "compaction":
      return block.content?.length ?? 0;
    default:
      return 0;
  }
}
