import type { ContextStatus } from "../vocabulary/events.js";
import type { Message } from "../vocabulary/messages.js";
import type { ModelProvider, NativeContextEdits } from "../vocabulary/model.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { ToolSpec } from "../vocabulary/tool-calls.js";

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
  /** Index range into the projected messages (end exclusive). */
  start: number;
  end: number;
  /** What the planner (or a level) did to it; `pinned` is the facts message of L4/L5. */
  state: "raw" | "summarized" | "archived" | "shrunk" | "pinned";
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

/** Where externalised content goes; `put` returns a ref that `get` reads back. */
export interface ContextArchive {
  put(content: string): string;
  get(ref: string): string | undefined;
}

/** What the planner may do with one candidate segment. */
export interface ContextProposalSegment {
  id: string;
  action: "keep" | "summarize" | "archive";
  /** The replacement text for `summarize`. */
  summary?: string;
  /** `verified` marks the segment as settled: it is kept and never touched again. */
  classification?: "verified" | "failed" | "superseded" | "unknown";
}

/** A planner's answer: per-segment actions plus additions to the working state. */
export interface ContextProposal {
  segments: ContextProposalSegment[];
  stateDelta?: Record<string, string>;
}

/** What the planner sees. `candidates` excludes the latest and every verified segment. */
export interface ContextPlannerInput {
  sessionId: string;
  reason: string;
  instructions?: string;
  view: ContextView;
  candidates: ContextSegment[];
}

/** Proposes which older segments to keep, summarise or archive (L3). */
export interface ContextPlanner {
  /** `signal` aborts when the engine stops waiting (the 100 ms timeout). */
  propose(input: ContextPlannerInput, signal?: AbortSignalLike): Promise<ContextProposal>;
}

/** What the model should see for one call, with the status and the native edits to request. */
export interface ContextPreparation {
  messages: Message[];
  /** Level 0 means nothing was done. */
  status: ContextStatus;
  edits: NativeContextEdits;
}

/** The per-request part of the static prefix. */
export interface ContextRequest {
  system?: string;
  tools?: ToolSpec[];
}

/** Projects durable messages into what the model sees, by levels of window pressure (seed A9). */
export interface ContextEngine {
  /** Projects the durable messages for the next model call (levels by window fraction). */
  prepare(messages: Message[], request?: ContextRequest): Promise<ContextPreparation>;
  /** Forced compaction: "overflow" gives the L5 emergency view; "manual" runs L4. */
  compact(
    reason: "overflow" | "manual",
    messages: Message[],
    instructions?: string,
  ): Promise<ContextPreparation>;
  /** The status of the last pass that acted (level > 0); undefined before the first. */
  readonly status: ContextStatus | undefined;
  /** What a paused run carries to go on with the same engine elsewhere (generation, facts, working state, refs). */
  state?(): RestoredContextState;
}

/** What an engine carries over from a session's log. */
export interface RestoredContextState {
  generation: number;
  facts: ContextFact[];
  workingState: Record<string, string>;
  archiveRefs: string[];
}

/** What the seed's archive returns from `put`; this kernel's archive returns the ref alone. */
export interface ContextArchivePutResult {
  ref: string;
  preview: string;
}

/** The seed's planner given as a model to ask (this kernel takes a {@link ContextPlanner}). */
export interface ContextPlannerProvider {
  provider: ModelProvider;
  model: string;
}
