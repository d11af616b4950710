import type { Redis } from "ioredis";
import type { DeltaSink } from "./stream-delta.js";
import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** The Redis stream that holds a session's deltas. */
export function redisDeltaKey(sessionId: string): string {
  return `lite-agent:session:${sessionId}:deltas`;
}

/** How long a session's deltas stay in Redis after the last write. */
const RETENTION_SECONDS = 24 * 60 * 60;
/** Approximate cap on entries per session stream. */
const MAX_ENTRIES = 100_000;

/**
 * The Redis Streams transport (used when `REDIS_URL` is set): deltas bypass Temporal entirely, so streaming adds
 * nothing to the workflow's history and latency is a Redis round trip.
 */
export function redisDeltaSink(redis: Redis | Promise<Redis>, sessionId: string): DeltaSink {
  const key = redisDeltaKey(sessionId);
  return {
    async send(deltas: StreamDelta[]) {
      const pipeline = (await redis).pipeline();
      for (const delta of deltas)
        pipeline.xadd(key, "MAXLEN", "~", MAX_ENTRIES, "*", "d", JSON.stringify(delta));
      pipeline.expire(key, RETENTION_SECONDS);
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed?.[0]) throw failed[0];
    },
    close: async () => undefined,
  };
}
