import type { ExternalDeltaSource } from "./external-delta-source.js";
import { redisDeltaKey } from "./redis-delta-sink.js";
import { assertRedisInstalled, connectRedis } from "./redis-client.js";
import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** How long one blocking read waits before it checks whether the reader was stopped. */
const BLOCK_MS = 1_000;

/**
 * Reads a session's deltas from Redis Streams, blocking for new ones, from after a given id; fails at once when
 * `ioredis` is not installed.
 */
export function redisDeltaSource(url: string): ExternalDeltaSource {
  assertRedisInstalled();
  return {
    async *read(sessionId, fromId, signal) {
      // Blocking reads need a connection of their own.
      const redis = await connectRedis(url, { maxRetriesPerRequest: 3 });
      const stop = () => redis.disconnect();
      signal.addEventListener("abort", stop, { once: true });
      let last = fromId ?? "0-0";
      try {
        while (!signal.aborted) {
          const reply = await redis
            .xread("COUNT", 500, "BLOCK", BLOCK_MS, "STREAMS", redisDeltaKey(sessionId), last)
            .catch((error: unknown) => {
              if (signal.aborted) return null;
              throw error;
            });
          for (const [, entries] of reply ?? []) {
            for (const [id, fields] of entries) {
              last = id;
              const json = fields[fields.indexOf("d") + 1];
              if (json !== undefined) yield { id, delta: JSON.parse(json) as StreamDelta };
            }
          }
        }
      } finally {
        signal.removeEventListener("abort", stop);
        redis.disconnect();
      }
    },
  };
}
