import type { Sinks } from "@temporalio/workflow";
import type { StreamEntry } from "../contract/stream/stream-entry.js";

/**
 * The replay name (and so the task-queue prefix) of the replayer that reads a session's stream entries from its
 * history, for a reader that fell behind what the session keeps in memory. The session workflow reports its entries
 * only on a replay under this name: workers never pay for it.
 */
export const STREAM_CAPTURE_REPLAY = "lite-agent-stream-capture";

/** The sink through which a replayed session reports each entry it appends to its stream. */
export interface StreamCaptureSinks extends Sinks {
  liteAgentStreamCapture: {
    /** The session appended `entry` to its stream at `offset`. */
    published(offset: number, entry: StreamEntry): void;
  };
}
