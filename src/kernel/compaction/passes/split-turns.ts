import type { Message } from "../../vocabulary/messages.js";

/** True when `message` opens a turn: a user prompt (string content), not a tool-result carrier. */
export function isTurnStart(message: Message): boolean {
  return message.role === "user" && typeof message.content === "string";
}

/**
 * Splits a conversation into turns, each starting at a `user` message with string content and keeping the assistant
 * replies and tool results that follow, so a turn can be dropped whole without separating a call from its result.
 * Messages before the first such user message form a leading head group.
 */
export function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  let current: Message[] = [];
  for (const message of messages) {
    if (isTurnStart(message) && current.length > 0) {
      turns.push(current);
      current = [];
    }
    current.push(message);
  }
  if (current.length > 0) turns.push(current);
  return turns;
}
