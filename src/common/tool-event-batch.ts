import type { WireEvent } from "./wire-event.js";

/**
 * Events a tool emitted inside its activity, sent live to the session (docs/decisions/0007). `at` is the index of
 * the first event in the call's sequence, so a batch sent twice is stored once and readers ask "from the n-th on".
 */
export interface ToolEventBatch {
  /** The tool call: {@link toolEventKey} of its run, turn and call id. */
  key: string;
  /** The run the call belongs to (readers file the events under it). */
  runId: string;
  /** The activity attempt that emitted them: a later attempt replaces an earlier one's events. */
  attempt: number;
  at: number;
  events: WireEvent[];
  /** In answers of `readStream`: the offsets of the call's `tool_call_start` and `tool_call_end`, once logged. */
  startOffset?: number;
  endOffset?: number;
}

/** How many events of each tool call a reader has seen, by key. */
export type ToolEventCursor = Record<string, number>;

/** The key of one tool call's events; readers derive it from the call's `tool_call_start`. */
export function toolEventKey(runId: string, turn: number, callId: string): string {
  return JSON.stringify([runId, turn, callId]);
}
