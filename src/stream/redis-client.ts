import type { Redis, RedisOptions } from "ioredis";
import { assertInstalled, importOptional } from "../runtime/optional-package.js";

const FEATURE = "Redis streaming (REDIS_URL)";

/** Fails at once, naming the package to install, when `ioredis` (an optional peer dependency) is not installed. */
export function assertRedisInstalled(): void {
  assertInstalled(FEATURE, ["ioredis"]);
}

/** A Redis connection to `url`, `ioredis` loaded on first use. */
export async function connectRedis(url: string, options: RedisOptions): Promise<Redis> {
  const { Redis } = await importOptional(FEATURE, ["ioredis"], () => import("ioredis"));
  return new Redis(url, options);
}
