import type { WireEvent } from "./wire-event.js";

/** One entry of a session's event stream. */
export interface StreamEntry {
  runId: string;
  event: WireEvent;
  /**
   * On `model_call_start` and `model_call_end` of durable runs: the number of the model call in its run (live
   * output is keyed `<runId>:<n>`), so readers pair a call's output with its events without counting them.
   */
  modelCall?: number;
  /**
   * `false` on events of a model call without live output (a buffering codec, or no transport): no end marker comes.
   * `"session"` when it went through the model activity's heartbeats (ADR 0019): no end marker either; readers take
   * the call's tail from its message. Absent: it went through the worker's transport.
   */
  liveOutput?: false | "session";
}

/** The topic of the session stream that carries durable events. */
export const EVENTS_TOPIC = "events";

/** An entry of the log with its offset. */
export interface LoggedEntry {
  offset: number;
  entry: StreamEntry;
}

/** What a session carries of its event log across continue-as-new. */
export interface EventLogState {
  base: number;
  entries: StreamEntry[];
}
