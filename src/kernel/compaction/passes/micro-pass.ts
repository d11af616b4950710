import type { ContentBlock, Message } from "../../vocabulary/messages.js";
import { mapBlocks } from "./map-blocks.js";
import { isSpilled } from "./spill-marker.js";
import type { CompactPass } from "../types.js";

/** Options of {@link microPass}. */
export interface MicroPassOptions {
  /** How many of the most recent tool results keep their body. Default 3. */
  keepRecent?: number;
  /** What replaces an old body. Default `[tool result omitted to save context]`. */
  placeholder?: string;
}

/**
 * A pass that replaces the bodies of tool results older than the most recent `keepRecent` with a placeholder.
 * It edits bodies in place and never removes a block, so every tool call keeps its result. Spilled results keep
 * their marker, because the marker is the only way back to the full body.
 */
export function microPass(options: MicroPassOptions = {}): CompactPass {
  const keepRecent = options.keepRecent ?? 3;
  const placeholder = options.placeholder ?? "[tool result omitted to save context]";
  return {
    name: "micro",
    apply(messages) {
      let olderToBlank = countToolResults(messages) - keepRecent;
      if (olderToBlank <= 0) return messages;
      let changed = false;
      const blank = (block: ContentBlock): ContentBlock => {
        if (block.type !== "tool_result" || olderToBlank-- <= 0) return block;
        if (block.content === placeholder || isSpilled(block.content)) return block;
        changed = true;
        return { ...block, content: placeholder };
      };
      const out = messages.map((message) => mapBlocks(message, blank));
      return changed ? out : messages;
    },
  };
}

/** The number of tool-result blocks in a conversation. */
function countToolResults(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") count++;
  }
  return count;
}
