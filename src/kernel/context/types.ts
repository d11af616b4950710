import type { Message } from "../messages.js";

/** A fact pinned verbatim across compactions. */
export interface ContextFact {
  kind: "goal" | "constraint" | "artifact";
  text: string;
  /** The log seq it came from. */
  seq?: number;
}

/** A run of messages opened by one user message. */
export interface ContextSegment {
  id: string;
  /** Index range into the projected messages. */
  start: number;
  end: number;
  /** What the planner (or a level) did to it. */
  state: "raw" | "summarized" | "archived" | "shrunk";
  verified?: boolean;
}

/** A derived, committed view of the session presented to the model. */
export interface ContextView {
  generation: number;
  facts: ContextFact[];
  workingState: Record<string, string>;
  segments: ContextSegment[];
  archiveRefs: string[];
  messages: Message[];
  prefixFingerprint: string;
}
