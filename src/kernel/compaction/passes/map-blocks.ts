import type { ContentBlock, Message } from "../../vocabulary/messages.js";

/**
 * Maps the content blocks of a message. Returns the same message object when `map` returned every block
 * unchanged (and for string content), so passes can keep the same-reference-when-unchanged contract cheaply.
 */
export function mapBlocks(message: Message, map: (block: ContentBlock) => ContentBlock): Message {
  if (typeof message.content === "string") return message;
  let changed = false;
  const content = message.content.map((block) => {
    const next = map(block);
    if (next !== block) changed = true;
    return next;
  });
  return changed ? { ...message, content } : message;
}
