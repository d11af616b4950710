import type { WireEvent } from "./wire-event.js";

/**
 * Events a tool emitted inside its activity, in a row of the call attempt's sequence: a window of its heartbeat, or
 * the last one, which its result carries to the session (docs/decisions/0021). `at` is the index of the first event
 * in the sequence, so a reader that saw some of them hands on only the rest.
 */
export interface ToolEventBatch {
  /** The tool call: `toolEventKey` (src/wire/tool-events.ts) of its run, turn and call id. */
  key: string;
  /** The run the call belongs to (readers file the events under it). */
  runId: string;
  /** The activity attempt that emitted them: a later attempt replaces an earlier one's events. */
  attempt: number;
  at: number;
  events: WireEvent[];
  /**
   * In answers of `readStream`, and given by the reader to windows read from heartbeats: the offsets of the call's
   * `tool_call_start` and `tool_call_end`, once logged.
   */
  startOffset?: number;
  endOffset?: number;
}

/** How many events of each tool call a reader has seen, by key. */
export type ToolEventCursor = Record<string, number>;
