import type { Message } from "../../vocabulary/messages.js";
import { splitTurns } from "./split-turns.js";
import type { CompactPass } from "../types.js";

/** Options of {@link snipPass}. */
export interface SnipPassOptions {
  /** Snip only when the conversation has more messages than this. Default 50. */
  maxMessages?: number;
  /** Leading turns always kept (the original task usually lives there). Default 1. */
  headTurns?: number;
  /** Keep trailing turns until at least this many messages are kept. Default 20. */
  tailKeep?: number;
}

/**
 * A pass that, above `maxMessages`, drops whole middle turns, keeping the first `headTurns` turns and enough trailing
 * turns for `tailKeep` messages, with a note `[N earlier turn(s) omitted to save context]` in the gap. Cuts only at
 * turn boundaries, so a tool call and its result are never split.
 */
export function snipPass(options: SnipPassOptions = {}): CompactPass {
  const maxMessages = options.maxMessages ?? 50;
  const headTurns = options.headTurns ?? 1;
  const tailKeep = options.tailKeep ?? 20;
  return {
    name: "snip",
    apply(messages) {
      if (messages.length <= maxMessages) return messages;
      const turns = splitTurns(messages);
      const tailTurns = countTailTurns(turns, tailKeep);
      const omitted = turns.length - headTurns - tailTurns;
      if (omitted <= 0) return messages;
      const note: Message = { role: "user", content: `[${omitted} earlier turn(s) omitted to save context]` };
      return [...turns.slice(0, headTurns).flat(), note, ...turns.slice(turns.length - tailTurns).flat()];
    },
  };
}

/** How many trailing turns it takes to keep at least `tailKeep` messages. */
function countTailTurns(turns: readonly Message[][], tailKeep: number): number {
  let count = 0;
  let kept = 0;
  for (let i = turns.length - 1; i >= 0 && kept < tailKeep; i--) {
    kept += turns[i]?.length ?? 0;
    count++;
  }
  return count;
}
