import type { Message, ToolResultBlock } from "../vocabulary/messages.js";
import type { SessionEvent, StoredEvent } from "../vocabulary/session-events.js";
import { sessionEventOf } from "./session-event-of.js";

/**
 * Rebuilds the model-facing transcript from a session log.
 *
 * - Consecutive `tool_result` events merge into one `{role:"user", content: ToolResultBlock[]}` message, the shape
 *   the kernel sends after a tool phase.
 * - `user` and `assistant` events flush that group and are pushed as they are.
 * - `summary` resets the transcript to `summary.messages` (everything before it was compacted into them).
 * - Sidecar events (`tool_started`, `file_snapshot`, `permission_decision`, `context_view`, `artifact_verified`)
 *   are not part of the model's context and are skipped.
 *
 * @example
 * const messages = foldEvents(await collect(checkpointer.read(sessionId)));
 */
export function foldEvents(events: readonly (SessionEvent | StoredEvent)[]): Message[] {
  let messages: Message[] = [];
  let results: ToolResultBlock[] = [];
  const flush = (): void => {
    if (results.length === 0) return;
    messages.push({ role: "user", content: results });
    results = [];
  };
  for (const entry of events) {
    const event = sessionEventOf(entry);
    switch (event.type) {
      case "tool_result":
        results.push(event.result);
        break;
      case "user":
      case "assistant":
        flush();
        messages.push(event.message);
        break;
      case "summary":
        // Results still pending belong to the compacted past, like everything else before the summary.
        results = [];
        messages = [...event.messages];
        break;
      default:
        break;
    }
  }
  flush();
  return messages;
}
