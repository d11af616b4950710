import type { Message } from "../../vocabulary/messages.js";
import type { WorkingSegment } from "./working-segments.js";

/**
 * Ids that have both a tool call and, later, a tool result. Providers reject a call without its result (and a
 * result without its call), so everything else has to go.
 */
function pairedIds(messages: Iterable<Message>): Set<string> {
  const called = new Set<string>();
  const paired = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_call") called.add(block.id);
      else if (block.type === "tool_result" && called.has(block.id)) paired.add(block.id);
    }
  }
  return paired;
}

/** Drops unpaired call and result blocks; a message left with no content is dropped (undefined). */
function dropUnpaired(message: Message, paired: Set<string>): Message | undefined {
  if (typeof message.content === "string") return message;
  const content = message.content.filter(
    (block) => (block.type !== "tool_call" && block.type !== "tool_result") || paired.has(block.id),
  );
  if (content.length === message.content.length) return message;
  return content.length === 0 ? undefined : { ...message, content };
}

/** Removes tool calls without a later result and results without an earlier call. Same array when consistent. */
export function repairToolPairs(messages: Message[]): Message[] {
  const paired = pairedIds(messages);
  const repaired = messages.map((message) => dropUnpaired(message, paired));
  const kept = repaired.filter((message): message is Message => message !== undefined);
  return kept.length === messages.length && kept.every((message, i) => message === messages[i])
    ? messages
    : kept;
}

/** `repairToolPairs` across segments, keeping each message in its segment; untouched segments stay the same. */
export function repairSegmentPairs(segments: readonly WorkingSegment[]): WorkingSegment[] {
  const paired = pairedIds(segments.flatMap((segment) => segment.messages));
  return segments
    .map((segment) => {
      const messages = segment.messages
        .map((message) => dropUnpaired(message, paired))
        .filter((message): message is Message => message !== undefined);
      const same =
        messages.length === segment.messages.length && messages.every((m, i) => m === segment.messages[i]);
      return same ? segment : { ...segment, messages };
    })
    .filter((segment) => segment.messages.length > 0);
}
