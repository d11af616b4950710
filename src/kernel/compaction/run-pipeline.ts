import type { Message } from "../vocabulary/messages.js";
import type { CompactPass } from "./types.js";

/**
 * Runs passes in order, each on the previous one's output. Returns the input array itself when no pass changed
 * anything, so callers detect a no-op by reference.
 */
export function runPipeline(passes: readonly CompactPass[], messages: Message[]): Message[] {
  return passes.reduce((current, pass) => pass.apply(current), messages);
}
