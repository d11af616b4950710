import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TemporalCliNotFoundError } from "../../src/dev-server/dev-server-error.js";
import { installTemporalCli } from "../../src/dev-server/cli-binary/install-temporal-cli.js";
import type {
  TemporalCliKind,
  TemporalCliSource,
} from "../../src/dev-server/cli-binary/temporal-cli-sources.js";
import { writeExecutable } from "./fixtures/write-executable.js";

let cacheDir: string;

beforeEach(() => {
  cacheDir = mkdtempSync(path.join(tmpdir(), "install-temporal-"));
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

/** A source whose "install" is a shell script run with the target folder as $1. */
function shellSource(name: string, script: string, kind: TemporalCliKind = "cli"): TemporalCliSource {
  return {
    name,
    kind,
    dirName: name,
    binaryPath: "bin/temporal",
    timeoutMs: 10_000,
    command: (targetDir) => ({ file: "sh", args: ["-c", script, "sh", targetDir] }),
  };
}

const writesWorkingBinary = `mkdir -p "$1/bin" && printf '#!/bin/sh\\necho temporal version 9\\n' > "$1/bin/temporal" && chmod +x "$1/bin/temporal"`;
const writesBrokenBinary = `mkdir -p "$1/bin" && printf '#!/bin/sh\\necho broken >&2; exit 4\\n' > "$1/bin/temporal" && chmod +x "$1/bin/temporal"`;

describe("installTemporalCli", () => {
  it("skips failing sources and publishes the first working binary into the cache", async () => {
    const lines: string[] = [];
    const location = await installTemporalCli({
      cacheDir,
      sources: [shellSource("fails", "echo boom >&2; exit 3"), shellSource("works", writesWorkingBinary)],
      log: (line) => lines.push(line),
    });
    expect(location).toEqual({
      path: path.join(cacheDir, "works", "bin", "temporal"),
      kind: "cli",
      source: "install",
    });
    expect(existsSync(location.path)).toBe(true);
    // Staging folders are gone: only the published folder is left.
    expect(readdirSync(cacheDir)).toEqual(["works"]);
    expect(lines.some((line) => line.startsWith("fails failed: exit code 3 — boom"))).toBe(true);
  });

  it("rejects an installed binary whose --version fails and tries the next source", async () => {
    const location = await installTemporalCli({
      cacheDir,
      sources: [shellSource("broken", writesBrokenBinary), shellSource("works", writesWorkingBinary)],
    });
    expect(location.path).toBe(path.join(cacheDir, "works", "bin", "temporal"));
    expect(readdirSync(cacheDir)).toEqual(["works"]);
  });

  it("restores a missing executable bit", async () => {
    const noExecBit = `mkdir -p "$1/bin" && printf '#!/bin/sh\\necho ok\\n' > "$1/bin/temporal"`;
    const location = await installTemporalCli({ cacheDir, sources: [shellSource("plain", noExecBit)] });
    expect(statSync(location.path).mode & 0o111).not.toBe(0);
  });

  it("reuses a binary already in the cache without running the install command", async () => {
    const existing = writeExecutable(path.join(cacheDir, "cached", "bin", "temporal"));
    const location = await installTemporalCli({ cacheDir, sources: [shellSource("cached", "exit 9")] });
    expect(location.path).toBe(existing);
  });

  it("throws with every failed attempt and every manual way to get a binary when nothing works", async () => {
    const error = await installTemporalCli({
      cacheDir,
      sources: [shellSource("fails", "echo boom >&2; exit 3"), shellSource("broken", writesBrokenBinary)],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    const { attempts, message } = error as TemporalCliNotFoundError;
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toBe("fails: exit code 3 — boom");
    expect(attempts[1]).toMatch(/^broken: .*--version failed: exit code 4 — broken$/);
    expect(message).toContain("Install attempts that failed:");
    expect(message).toContain("set TEMPORAL_ADDRESS=host:port");
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("reports a command that cannot be started", async () => {
    const missing: TemporalCliSource = {
      ...shellSource("missing", ""),
      command: () => ({ file: "/nonexistent/python3", args: [] }),
    };
    const error = (await installTemporalCli({ cacheDir, sources: [missing] }).catch(
      (e: unknown) => e,
    )) as Error;
    expect((error as TemporalCliNotFoundError).attempts[0]).toMatch(
      /^missing: spawn \/nonexistent\/python3 ENOENT/,
    );
  });
});
