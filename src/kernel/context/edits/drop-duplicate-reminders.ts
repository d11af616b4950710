import { isInjectedNote } from "./pinned-facts.js";
import type { WorkingSegment } from "./working-segments.js";

/**
 * L2: drops repeated injected notes — user messages whose string content starts with `<system-reminder>` or
 * `<background-task-completed` and equals an earlier one. The first occurrence stays. Such notes carry no tool
 * pairs, so dropping them cannot orphan a call or a result.
 */
export function dropDuplicateReminders(segments: readonly WorkingSegment[]): WorkingSegment[] {
  const seen = new Set<string>();
  return segments
    .map((segment) => {
      const messages = segment.messages.filter((message) => {
        if (message.role !== "user" || typeof message.content !== "string") return true;
        if (!isInjectedNote(message.content)) return true;
        if (seen.has(message.content)) return false;
        seen.add(message.content);
        return true;
      });
      return messages.length === segment.messages.length ? segment : { ...segment, messages };
    })
    .filter((segment) => segment.messages.length > 0);
}
