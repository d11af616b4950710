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

/** What a sink may learn when it stores a batch: that nobody has read the session's live output lately. */
export interface DeltaReceipt {
  unread: boolean;
}

/** Where a model activity publishes its live deltas. */
export interface DeltaSink {
  /** Sends a batch of deltas; resolves when they are stored, with a receipt when the sink can tell who reads. */
  send(deltas: StreamDelta[]): Promise<DeltaReceipt | void>;
  /** Releases the connection. */
  close(): Promise<void>;
}

/** How often a publisher sends what it has gathered to the session, at most (each batch is an update and a workflow task). */
export const DEFAULT_BATCH_MS = 50;

/**
 * How often, while nobody reads the live output (the sink's receipt says so), at most: output is still sent, so a
 * reader who comes later gets all of it, only in fewer, larger batches.
 */
export const UNREAD_BATCH_MS = 1_000;

/** True when a delta belongs to the run (its model-call key starts with the run id). */
export function deltaOfRun(delta: StreamDelta, runId: string): boolean {
  return delta.key.startsWith(`${runId}:`);
}
