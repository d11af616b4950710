import { contentBlocks, type AssistantMessage } from "../../kernel/vocabulary/messages.js";
import type { StreamDelta } from "../../contract/stream/stream-delta.js";

/**
 * A model call's whole output of each kind, as its durable message holds it: the text of its text blocks and of its
 * reasoning blocks, each in order (what the call's `text_delta`s and `reasoning_delta`s add up to).
 */
export function finalOutput(message: AssistantMessage): Record<StreamDelta["kind"], string> {
  const output = { text: "", reasoning: "" };
  for (const block of contentBlocks(message)) {
    if (block.type === "text") output.text += block.text;
    if (block.type === "reasoning") output.reasoning += block.text;
  }
  return output;
}
