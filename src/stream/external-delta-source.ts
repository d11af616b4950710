import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** How a client reads live deltas that do not come from the session itself (Redis). */
export interface ExternalDeltaSource {
  /** Deltas of the session after `fromId` (exclusive), each with its id, as they arrive, until `signal` aborts. */
  read(
    sessionId: string,
    fromId: string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<{ id: string; delta: StreamDelta }>;
}
