import { defineQuery, defineUpdate } from "@temporalio/workflow";
import type { ToolEventBatch, ToolEventCursor } from "../common/tool-event-batch.js";
import type { StreamDelta } from "../stream/stream-delta.js";
import type { LoggedEntry } from "./event-log.js";

// Wire names are persisted in histories: never rename one without patched() and a new replay history.

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
  /** Events tools emitted after the reader's tool cursor (absent from sessions older than tool events). */
  toolEvents?: ToolEventBatch[];
  /** True once the session accepts nothing more (closed). */
  closed: boolean;
  /**
   * True when no activity that can add to the stream without a history event (a model call heartbeating live output,
   * a tool call that may send events) is in flight: until the session's history grows, the stream and the live
   * output stay as they are, so a reader may wait on the history instead of asking again or describing the session
   * (absent from older sessions: ask as before).
   */
  quiet?: boolean;
}

/** The failure type with which `publishToolEvents` answers a stored batch. */
export const TOOL_EVENTS_STORED = "LiteAgent.ToolEventsStored";

/** Reads the session's events (by offset) and tools' events; costs no history. */
export const readStreamQuery = defineQuery<ReadStreamResult, [ReadStreamRequest]>("readStream");
/**
 * Hands a batch of a tool's events to the session. Its validator stores the batch and rejects the update with
 * `TOOL_EVENTS_STORED`, so tool events never enter history (docs/decisions/0007).
 */
export const publishToolEventsUpdate = defineUpdate<void, [ToolEventBatch]>("publishToolEvents");
