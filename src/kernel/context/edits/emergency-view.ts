import { EMERGENCY_TAIL_CHARS, EMERGENCY_TAIL_MESSAGES } from "./context-levels.js";
import { pinnedSegment } from "./pin-and-shrink.js";
import { repairToolPairs } from "./repair-tool-pairs.js";
import { shrinkMessage } from "./shrink-text.js";
import type { ContextFact } from "../types.js";
import type { WorkingSegment } from "./working-segments.js";

/** The id of the L5 segment holding the last messages. */
export const EMERGENCY_SEGMENT_ID = "emergency-tail";

/**
 * L5: the emergency view — the pinned facts plus the last two messages, each cut to 512 chars. A call or result
 * whose partner fell outside the tail is dropped, so the pair stays consistent.
 */
export function emergencyView(
  segments: readonly WorkingSegment[],
  facts: readonly ContextFact[],
): WorkingSegment[] {
  const messages = segments
    .filter((segment) => segment.state !== "pinned")
    .flatMap((segment) => segment.messages);
  const tail = repairToolPairs(
    messages.slice(-EMERGENCY_TAIL_MESSAGES).map((message) => shrinkMessage(message, EMERGENCY_TAIL_CHARS)),
  );
  const view = [pinnedSegment(facts)];
  if (tail.length > 0) view.push({ id: EMERGENCY_SEGMENT_ID, messages: tail, state: "shrunk" });
  return view;
}
