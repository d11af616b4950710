/**
 * A piece of a model call's live output. `key` names the model call (one activity; it is `<runId>:<n>`),
 * `attempt` the activity attempt, and `at` the character offset of `text` within that attempt's output of this
 * `kind`: together they let a client drop what a retried attempt repeats. Kept small: every byte is paid per batch.
 */
export interface StreamDelta {
  key: string;
  attempt: number;
  kind: "text" | "reasoning";
  at: number;
  text: string;
  /** Set on the last delta of an attempt (it may carry no text). */
  end?: boolean;
}

/** Where a model activity publishes its live deltas. */
export interface DeltaSink {
  /** Sends a batch of deltas; resolves when they are stored (or handed to the SDK, for heartbeats). */
  send(deltas: StreamDelta[]): Promise<void>;
  /**
   * What every heartbeat of the activity must carry, when the sink sends through heartbeats: details replace the
   * previous ones, so a bare liveness heartbeat would erase the live output.
   */
  heartbeatDetails?(): unknown;
  /** Releases the connection. */
  close(): Promise<void>;
}

/** How often a publisher sends what it has gathered, at most. */
export const DEFAULT_BATCH_MS = 50;

/** True when a delta belongs to the run (its model-call key starts with the run id). */
export function deltaOfRun(delta: StreamDelta, runId: string): boolean {
  return delta.key.startsWith(`${runId}:`);
}
