import { spawn, spawnSync } from "node:child_process";
import { Redis } from "ioredis";
import { findFreePort } from "../../src/dev-server/free-port.js";

/** A redis-server the test suite started, or the one `REDIS_URL` names. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * Uses `REDIS_URL` when set; otherwise starts Debian's `redis-server` (installed by .ci/run) on a free port,
 * without persistence. Undefined when there is no binary, so only the Redis tests fail, with a clear message.
 */
export async function startTestRedis(): Promise<TestRedis | undefined> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const port = await findFreePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitForPing(url);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function waitForPing(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on("error", () => undefined); // refused until the server listens: expected while waiting
    try {
      await redis.connect();
      await redis.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`redis-server did not answer at ${url}: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      redis.disconnect();
    }
  }
}
