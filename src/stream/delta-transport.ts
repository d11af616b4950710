import { Redis } from "ioredis";
import { redisDeltaSink } from "./redis-delta-sink.js";
import type { DeltaSink } from "./stream-delta.js";
import { temporalDeltaSink } from "./temporal-delta-sink.js";

/** How a worker publishes live model output: into the workflow stream, or into Redis Streams. */
export interface DeltaTransport {
  readonly kind: "temporal" | "redis";
  /** A sink for one model-call attempt of a session (called inside the activity). */
  sink(sessionId: string): DeltaSink;
  /** Releases shared connections at worker shutdown. */
  close(): Promise<void>;
}

/** The Temporal-native transport: no other service. */
export function temporalDeltaTransport(): DeltaTransport {
  return { kind: "temporal", sink: () => temporalDeltaSink(), close: async () => undefined };
}

/** The Redis Streams transport over one shared connection. */
export function redisDeltaTransport(url: string): DeltaTransport {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  return {
    kind: "redis",
    sink: (sessionId) => redisDeltaSink(redis, sessionId),
    close: async () => void (await redis.quit()),
  };
}

/** Redis when `REDIS_URL` is set (or given), the Temporal-native transport otherwise. */
export function deltaTransportFromEnv(redisUrl = process.env.REDIS_URL): DeltaTransport {
  return redisUrl ? redisDeltaTransport(redisUrl) : temporalDeltaTransport();
}
