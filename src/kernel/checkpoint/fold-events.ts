import type { Message, ToolResultBlock } from "../vocabulary/messages.js";
import type { SessionEvent, StoredEvent } from "../vocabulary/session-events.js";
import { sessionEventOf } from "./session-event-of.js";

/**
 * Rebuilds the model-facing transcript from a session log: consecutive `tool_result`s merge into one user message,
 * `user`/`assistant` events are pushed as they are, a `summary` resets the transcript to its messages, and sidecar
 * events (`tool_started`, `file_snapshot`, `permission_decision`, …) are skipped.
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
