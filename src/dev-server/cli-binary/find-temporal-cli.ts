import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { DevServerError } from "../dev-server-error.js";
import { defaultTemporalCacheDir } from "./temporal-cache-dir.js";
import {
  TEMPORAL_CLI_SOURCES,
  type TemporalCliKind,
  type TemporalCliSource,
} from "./temporal-cli-sources.js";

/** A Temporal binary that was found, and where it came from. */
export interface TemporalCliLocation {
  readonly path: string;
  readonly kind: TemporalCliKind;
  readonly source: "env" | "path" | "cache" | "install";
}

/** Where {@link findTemporalCli} looks. */
export interface FindTemporalCliOptions {
  /** Environment to read `TEMPORAL_CLI` and `PATH` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** The project-local cache (default `<cwd>/.cache/temporal`). */
  readonly cacheDir?: string;
  /** Install sources whose folders are searched in the cache (default {@link TEMPORAL_CLI_SOURCES}). */
  readonly sources?: readonly TemporalCliSource[];
}

/** True when `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Java test server is a different program with a different command line. */
export function binaryKind(file: string): TemporalCliKind {
  return path.basename(file).includes("test-server") ? "test-server" : "cli";
}

function fromEnv(env: NodeJS.ProcessEnv): TemporalCliLocation | undefined {
  const configured = env.TEMPORAL_CLI;
  if (configured === undefined || configured === "") return undefined;
  const file = path.resolve(configured);
  // An explicit setting that points nowhere is a mistake to report, not a reason to run something else.
  if (!isExecutableFile(file))
    throw new DevServerError(`TEMPORAL_CLI=${configured} is not an executable file`);
  return { path: file, kind: binaryKind(file), source: "env" };
}

function fromPath(env: NodeJS.ProcessEnv): TemporalCliLocation | undefined {
  const name = process.platform === "win32" ? "temporal.exe" : "temporal";
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return { path: file, kind: "cli", source: "path" };
  }
  return undefined;
}

/** The binaries a source would have installed, full CLIs before the UI-less test server. */
export function cachedBinaries(
  cacheDir: string,
  sources: readonly TemporalCliSource[],
): TemporalCliLocation[] {
  const ordered = [...sources.filter((s) => s.kind === "cli"), ...sources.filter((s) => s.kind !== "cli")];
  return ordered.map((s) => ({
    path: path.join(cacheDir, s.dirName, s.binaryPath),
    kind: s.kind,
    source: "cache",
  }));
}

/**
 * Locates a Temporal binary without installing anything: `TEMPORAL_CLI` → `temporal` on `PATH` → the project
 * cache. Returns `undefined` when there is none.
 */
export function findTemporalCli(options: FindTemporalCliOptions = {}): TemporalCliLocation | undefined {
  const env = options.env ?? process.env;
  const cacheDir = options.cacheDir ?? defaultTemporalCacheDir();
  const cached = cachedBinaries(cacheDir, options.sources ?? TEMPORAL_CLI_SOURCES);
  return fromEnv(env) ?? fromPath(env) ?? cached.find((candidate) => isExecutableFile(candidate.path));
}
