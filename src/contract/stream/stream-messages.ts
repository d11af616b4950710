import { defineQuery } from "@temporalio/workflow";
import type { ToolEventBatch, ToolEventCursor } from "./tool-event-batch.js";
import type { StreamDelta } from "./stream-delta.js";
import type { LoggedEntry } from "./stream-entry.js";

// Wire names are persisted in histories and sent by clients to sessions on any build: they stay frozen
// (docs/versioning.md, "What stays compatible across builds").

/** A read of the session stream: events from an offset, and tools' events after a cursor. */
export interface ReadStreamRequest {
  /** The first offset wanted (default 0: from the oldest kept). */
  from?: number;
  /** How many events of each tool call the reader has seen; omit to get no tool events. */
  tools?: ToolEventCursor;
  /** The most event bytes in one answer (default and upper bound 1 MB). */
  maxBytes?: number;
}

/** One answer of `readStream`. */
export interface ReadStreamResult {
  /** The oldest offset still kept: a reader that asked for less has missed entries. */
  base: number;
  /** The next offset to be written. */
  end: number;
  items: LoggedEntry[];
  /**
   * Always empty: live model output travels in the model activity's heartbeats (docs/decisions/0019). Kept so a
   * reader of an earlier build still parses the answer.
   */
  deltas: StreamDelta[];
  /**
   * The last events of recent tool calls, as their results carried them, after the reader's tool cursor (absent from
   * sessions older than tool events). Events of calls in flight are in their activities' heartbeats (ADR 0021).
   */
  toolEvents?: ToolEventBatch[];
  /**
   * Where the tool calls in flight began: the offset of each one's `tool_call_start`, by its key (absent from older
   * sessions). A reader places a call's events from its activity's heartbeats there.
   */
  toolCallStarts?: Record<string, number>;
  /** True once the session accepts nothing more (closed). */
  closed: boolean;
  /**
   * True when no activity that can add to the stream without a history event (live model output, tool events) is in
   * flight: until the history grows nothing changes, so a reader may wait on the history instead of asking again
   * (absent from older sessions: ask as before).
   */
  quiet?: boolean;
}

/**
 * Reads the session's events (by offset) and tools' events; costs no history. The update names `publishDeltas` and
 * `publishToolEvents` are retired (docs/decisions/0019, 0021): the session has no handler for them, and they are
 * never reused (docs/decisions/0012).
 */
export const readStreamQuery = defineQuery<ReadStreamResult, [ReadStreamRequest]>("readStream");
