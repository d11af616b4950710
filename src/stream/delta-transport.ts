import { heartbeatDeltaSink } from "./heartbeat-delta-sink.js";
import { redisDeltaSink } from "./redis-delta-sink.js";
import { assertRedisInstalled, connectRedis } from "./redis-client.js";
import type { EndMarkerPolicy } from "./delta-publisher.js";
import type { DeltaSink } from "./stream-delta.js";

/** How a worker publishes live model output: in the model activity's heartbeats (no history), or into Redis Streams. */
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
  sink(sessionId: string, origin: { key: string; attempt: number }): DeltaSink;
  /** Releases shared connections at worker shutdown. */
  close(): Promise<void>;
}

/** The longest a worker of the agents' queues holds back a heartbeat (the SDK's throttle), in ms (ADR 0019, 0021). */
export const LIVE_OUTPUT_HEARTBEAT_MS = 50;
/**
 * How long the Temporal-native publisher gathers output before it hands the window to the SDK: shorter than the
 * throttle, so the details the SDK sends are at most this old; longer than a token, so the window (up to 64 KiB of
 * JSON) is not encoded per token.
 */
const HEARTBEAT_BATCH_MS = 20;

/** The Temporal-native transport: the model activity's heartbeats, no other service. */
export function temporalDeltaTransport(): DeltaTransport {
  // Each batch becomes the heartbeat details (the whole window, not the batch); the SDK sends the latest details
  // once per throttle interval. An end marker could never be read: the details go with the activity once it completes (readers take the tail
  // from the final message instead).
  return {
    kind: "temporal",
    batchMs: HEARTBEAT_BATCH_MS,
    endMarker: "never",
    sink: (_sessionId, origin) => heartbeatDeltaSink(origin),
    close: async () => undefined,
  };
}

/** The Redis Streams transport over one shared connection; fails at once when `ioredis` is not installed. */
export function redisDeltaTransport(url: string): DeltaTransport {
  assertRedisInstalled();
  const redis = connectRedis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  // A failed load is reported by the first send; this keeps it from being an unhandled rejection meanwhile.
  redis.catch(() => undefined);
  return {
    kind: "redis",
    // A Redis write costs nothing in history: send at once (chunks of the same tick still go together).
    batchMs: 0,
    endMarker: "always",
    sink: (sessionId) => redisDeltaSink(redis, sessionId),
    close: async () => void (await (await redis.catch(() => undefined))?.quit()),
  };
}

/** Redis when `REDIS_URL` is set (or given), the Temporal-native transport otherwise. */
export function deltaTransportFromEnv(redisUrl = process.env.REDIS_URL): DeltaTransport {
  return redisUrl ? redisDeltaTransport(redisUrl) : temporalDeltaTransport();
}
