import { SHRINK_OLDER_CHARS } from "./context-levels.js";
import { pinnedFactsMessage } from "./pinned-facts.js";
import { shrinkMessage } from "./shrink-text.js";
import type { ContextFact } from "../types.js";
import { latestSegmentId, type WorkingSegment } from "./working-segments.js";

/** The id of the segment holding the pinned-facts message. */
export const PINNED_SEGMENT_ID = "facts";

/** The segment that pins the facts verbatim. */
export function pinnedSegment(facts: readonly ContextFact[]): WorkingSegment {
  return { id: PINNED_SEGMENT_ID, messages: [pinnedFactsMessage(facts)], state: "pinned" };
}

/**
 * L4: puts the pinned facts first and shrinks every text of the older segments to 768 chars. The active
 * (latest) segment is left byte-identical: it is what the model is working on right now.
 */
export function pinAndShrink(
  segments: readonly WorkingSegment[],
  facts: readonly ContextFact[],
): WorkingSegment[] {
  const body = segments.filter((segment) => segment.state !== "pinned");
  const latest = latestSegmentId(body);
  const shrunk = body.map((segment) => {
    if (segment.id === latest) return segment;
    const messages = segment.messages.map((message) => shrinkMessage(message, SHRINK_OLDER_CHARS));
    if (messages.every((message, i) => message === segment.messages[i])) return segment;
    return { ...segment, messages, state: segment.state === "raw" ? ("shrunk" as const) : segment.state };
  });
  return [pinnedSegment(facts), ...shrunk];
}
