import type { StreamDelta } from "../contract/stream/stream-delta.js";

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
