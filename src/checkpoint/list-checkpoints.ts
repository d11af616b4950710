import { AgentError } from "../kernel/vocabulary/errors.js";
import { messageText } from "../kernel/vocabulary/messages.js";
import type { Checkpointer } from "../kernel/vocabulary/session-events.js";

/** A point a session can be restored to: one of its prompts. */
export interface Checkpoint {
  /** The seq of the prompt's `user` event. Restore to `seq - 1` to undo the prompt and all that followed. */
  seq: number;
  /** The prompt's text. */
  prompt: string;
  /** When it was stored (ISO). */
  ts: string;
}

/**
 * The checkpoints of a session: each prompt in its log (`user` events), oldest first (the seed's `listCheckpoints`).
 * Sessions without a log have none.
 */
export async function listCheckpoints(checkpointer: Checkpointer, sessionId: string): Promise<Checkpoint[]> {
  const checkpoints: Checkpoint[] = [];
  for await (const stored of checkpointer.read(sessionId)) {
    if (stored.event.type !== "user") continue;
    checkpoints.push({ seq: stored.seq, prompt: messageText(stored.event.message), ts: stored.ts });
  }
  return checkpoints;
}

/** The checkpointer of an agent, or a clear error naming the operation that needs one. */
export function requireCheckpointer(checkpointer: Checkpointer | undefined, operation: string): Checkpointer {
  if (!checkpointer)
    throw new AgentError(`${operation}: this agent has no checkpointer (give createAgent a checkpointer)`);
  return checkpointer;
}
