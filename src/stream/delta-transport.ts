import { Redis } from "ioredis";
import { redisDeltaSink } from "./redis-delta-sink.js";
import type { EndMarkerPolicy } from "./delta-publisher.js";
import { DEFAULT_BATCH_MS, type DeltaSink } from "./stream-delta.js";
import { temporalDeltaSink } from "./temporal-delta-sink.js";

/** How a worker publishes live model output: into the session (rejected `publishDeltas` updates, no history), or into Redis Streams. */
export interface DeltaTransport {
  readonly kind: "temporal" | "redis";
  /** How long a publisher gathers output before sending it. */
  readonly batchMs: number;
  /**
   * When a model call ends with an end marker: after every call (clients merging another source wait for it), only
   * after a call that had output, or never.
   */
  readonly endMarker: EndMarkerPolicy;
  /** A sink for one model-call attempt of a session (called inside the activity). */
  sink(sessionId: string): DeltaSink;
  /** Releases shared connections at worker shutdown. */
  close(): Promise<void>;
}

/** The Temporal-native transport: no other service. */
export function temporalDeltaTransport(): DeltaTransport {
  // Each batch is an update and a (speculative) workflow task, so output is gathered for a while (well inside
  // the 100 ms bound). Clients read it in the same answer as the events, so they never wait for an end marker; a
  // call without output (a tool call) sends nothing, sparing every such model call an update round trip.
  return {
    kind: "temporal",
    batchMs: DEFAULT_BATCH_MS,
    endMarker: "after-output",
    sink: () => temporalDeltaSink(),
    close: async () => undefined,
  };
}

/** The Redis Streams transport over one shared connection. */
export function redisDeltaTransport(url: string): DeltaTransport {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  return {
    kind: "redis",
    // A Redis write costs nothing in history: send at once (chunks of the same tick still go together).
    batchMs: 0,
    endMarker: "always",
    sink: (sessionId) => redisDeltaSink(redis, sessionId),
    close: async () => void (await redis.quit()),
  };
}

/** Redis when `REDIS_URL` is set (or given), the Temporal-native transport otherwise. */
export function deltaTransportFromEnv(redisUrl = process.env.REDIS_URL): DeltaTransport {
  return redisUrl ? redisDeltaTransport(redisUrl) : temporalDeltaTransport();
}
