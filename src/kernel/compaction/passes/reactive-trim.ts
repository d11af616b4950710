import type { Message } from "../../vocabulary/messages.js";
import { estimateTokens } from "../estimate-tokens.js";
import { splitTurns } from "./split-turns.js";

/** Options of {@link reactiveTrim}. */
export interface ReactiveTrimOptions {
  /** The most recent turns to keep at most. Default 2. */
  keepTurns?: number;
  /** The estimated tokens the kept turns may use; the newest turn is kept even when it alone is larger. Default 4000. */
  tokenBudget?: number;
}

/**
 * An emergency trim, using no model, for a prompt the provider rejected as too long: keeps the head and the newest
 * turns (up to `keepTurns`, within `tokenBudget`) behind a note `[N earlier turn(s) dropped — context overflow]`.
 * Cuts only at turn boundaries; returns the input array itself when there is nothing to drop.
 */
export function reactiveTrim(messages: Message[], options: ReactiveTrimOptions = {}): Message[] {
  const keepTurns = options.keepTurns ?? 2;
  const tokenBudget = options.tokenBudget ?? 4000;
  const turns = splitTurns(messages);
  let kept = 0;
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const cost = estimateTokens(turns[i] ?? []);
    if (kept >= 1 && (kept >= keepTurns || used + cost > tokenBudget)) break;
    kept++;
    used += cost;
  }
  const dropped = turns.length - kept;
  if (dropped <= 0) return messages;
  const note: Message = { role: "user", content: `[${dropped} earlier turn(s) dropped — context overflow]` };
  return [note, ...turns.slice(dropped).flat()];
}
