import { defineQuery, defineUpdate } from "@temporalio/workflow";
import type { ToolEventBatch, ToolEventCursor } from "../common/tool-event-batch.js";
import type { StreamDelta } from "../stream/stream-delta.js";
import type { LoggedEntry } from "./event-log.js";
import type { DeltaCursor } from "./live-deltas.js";

// Wire names are persisted in histories: never rename one without patched() and a new replay history.

/** A read of the session stream: events from an offset, and live output after a cursor. */
export interface ReadStreamRequest {
  /** The first offset wanted (default 0: from the oldest kept). */
  from?: number;
  /** How far the reader got in each model call's live output; omit to get none. */
  deltas?: DeltaCursor;
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
  deltas: StreamDelta[];
  /** Events tools emitted after the reader's tool cursor (absent from sessions older than tool events). */
  toolEvents?: ToolEventBatch[];
  /** True once the session accepts nothing more (closed). */
  closed: boolean;
  /**
   * True when no activity that can add to the stream without a history event (a model call sending live output, a
   * tool call that may send events) is in flight: until the session's history grows, the stream stays as it is, so
   * a reader may wait on the history instead of asking again (absent from older sessions: ask as before).
   */
  quiet?: boolean;
}

/** The failure type with which `publishDeltas` answers a stored batch (a rejection writes nothing into history). */
export const DELTAS_STORED = "LiteAgent.DeltasStored";

/** The failure type with which `publishToolEvents` answers a stored batch. */
export const TOOL_EVENTS_STORED = "LiteAgent.ToolEventsStored";

/** Reads the session's events (by offset) and live output; costs no history. */
export const readStreamQuery = defineQuery<ReadStreamResult, [ReadStreamRequest]>("readStream");
/**
 * Hands a batch of live output to the session. Its validator stores the batch and rejects the update with
 * `DELTAS_STORED`, so the batch never enters history (docs/decisions/0005).
 */
export const publishDeltasUpdate = defineUpdate<void, [StreamDelta[]]>("publishDeltas");
/**
 * Hands a batch of a tool's events to the session. Like `publishDeltas`, its validator stores the batch and rejects
 * the update with `TOOL_EVENTS_STORED`, so tool events never enter history (docs/decisions/0007).
 */
export const publishToolEventsUpdate = defineUpdate<void, [ToolEventBatch]>("publishToolEvents");
