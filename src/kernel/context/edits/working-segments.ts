import type { Message } from "../../vocabulary/messages.js";
import type { ContextSegment } from "../types.js";

/** A segment while the levels work on it: its messages are replaced, never mutated. */
export interface WorkingSegment {
  /** `seg-<index of its first message in the durable messages>`, stable while the log only grows. */
  id: string;
  messages: Message[];
  state: ContextSegment["state"];
  verified?: boolean;
}

/**
 * Splits messages into segments: each user message with string content opens one, so tool-result messages stay
 * with the turn that asked for them. Messages before the first such user message form a segment of their own.
 */
export function splitSegments(messages: readonly Message[]): WorkingSegment[] {
  const segments: WorkingSegment[] = [];
  messages.forEach((message, index) => {
    const opens = message.role === "user" && typeof message.content === "string";
    const current = segments.at(-1);
    if (opens || !current) segments.push({ id: `seg-${index}`, messages: [message], state: "raw" });
    else current.messages.push(message);
  });
  return segments;
}

/** The id of the latest (active) segment, ignoring the pinned-facts segment. */
export function latestSegmentId(segments: readonly WorkingSegment[]): string | undefined {
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (segment.state !== "pinned") return segment.id;
  }
  return undefined;
}

/** Flattens segments into the messages the model sees and their index ranges; empty segments disappear. */
export function flattenSegments(segments: readonly WorkingSegment[]): {
  messages: Message[];
  segments: ContextSegment[];
} {
  const messages: Message[] = [];
  const ranges: ContextSegment[] = [];
  for (const segment of segments) {
    if (segment.messages.length === 0) continue;
    const start = messages.length;
    messages.push(...segment.messages);
    const range: ContextSegment = { id: segment.id, start, end: messages.length, state: segment.state };
    if (segment.verified) range.verified = true;
    ranges.push(range);
  }
  return { messages, segments: ranges };
}
