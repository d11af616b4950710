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
   * `false` on the model call events of a call that streams no live output (its codec buffers the answer, or its
   * worker has no live-output transport): no end marker will come, so readers do not wait for one. `"session"` when
   * the live output went through Temporal (the model activity's heartbeats, ADR 0019): no end marker comes, and a
   * reader of that transport takes the call's tail from its message. Absent: the live output went where the worker's transport sends it.
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
