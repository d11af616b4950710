import type { Message } from "../../vocabulary/messages.js";

/** True when `message` opens a turn: a user prompt (string content), not a tool-result carrier. */
export function isTurnStart(message: Message): boolean {
  return message.role === "user" && typeof message.content === "string";
}

/**
 * Splits a conversation into turns. A turn starts at a `user` message with string content; assistant replies and
 * the tool-result messages that answer them stay in the turn, so a turn never separates a tool call from its
 * result and can be dropped whole. Messages before the first such user message form a leading head group.
 *
 * @example splitTurns([u("a"), assistant, toolResults, u("b")]) // [[u("a"), assistant, toolResults], [u("b")]]
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
