import { spawn, type ChildProcess } from "node:child_process";
import { WATCHDOG_SCRIPT } from "./watchdog-script.js";

/** How the server process ended. */
export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all. */
  readonly error?: Error;
}

/** A running server under its watchdog, in a process group of its own. */
export interface ServerProcess {
  /** The watchdog's pid, which is also the process group id: `kill(-pid)` reaches the server too. */
  readonly pid: number;
  /** Resolves (never rejects) when the watchdog, and so the server, has exited. */
  readonly exited: Promise<ServerExit>;
  /** The exit, once it happened. */
  exitInfo(): ServerExit | undefined;
  /**
   * The first and the last lines the server wrote to stdout/stderr, for error messages: a failed start says why
   * early (a port in use) and then may print a long stack trace.
   */
  outputExcerpt(): string;
  /** SIGTERM, then SIGKILL to the whole group after `graceMs`; resolves when the process has exited. */
  stop(graceMs: number): Promise<void>;
}

/** What to run. */
export interface SpawnServerOptions {
  readonly file: string;
  readonly args: readonly string[];
  /** How long the watchdog waits after SIGTERM before it SIGKILLs the server. */
  readonly graceMs: number;
  /** Each output line as it arrives. */
  readonly onLine?: (line: string) => void;
}

const HEAD_LINES = 20;
const TAIL_LINES = 40;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

// Runs synchronously while this process exits normally; the watchdog covers the abnormal exits.
function stopAllOnExit(): void {
  for (const child of live) if (child.pid !== undefined) signalQuietly(child.pid, "SIGTERM");
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

// Client settings in TEMPORAL_* would otherwise be read by the CLI; NODE_OPTIONS (test runners' loaders)
// would slow down or break the plain-JavaScript watchdog.
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("TEMPORAL_") && key !== "NODE_OPTIONS") env[key] = value;
  }
  return env;
}

function collectLines(child: ChildProcess, onLine: ((line: string) => void) | undefined): () => string {
  const head: string[] = [];
  const tail: string[] = [];
  let dropped = 0;
  const pending = { stdout: "", stderr: "" };
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream]?.on("data", (chunk: Buffer) => {
      const parts = (pending[stream] + chunk.toString("utf8")).split("\n");
      pending[stream] = parts.pop() ?? "";
      for (const line of parts) {
        if (head.length < HEAD_LINES) head.push(line);
        else tail.push(line);
        if (tail.length > TAIL_LINES && tail.shift() !== undefined) dropped++;
        onLine?.(line);
      }
    });
  }
  return () =>
    [...head, ...(dropped > 0 ? [`… (${dropped} lines)`] : []), ...tail, pending.stdout, pending.stderr]
      .filter((line) => line.trim() !== "")
      .join("\n");
}

/** Starts `file args` under a watchdog in its own process group (see {@link WATCHDOG_SCRIPT}). */
export function spawnServerProcess(options: SpawnServerOptions): ServerProcess {
  const child = spawn(
    process.execPath,
    ["-e", WATCHDOG_SCRIPT, String(options.graceMs), options.file, ...options.args],
    {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: serverEnv(),
    },
  );
  let exit: ServerExit | undefined;
  const exited = new Promise<ServerExit>((resolve) => {
    child.once("error", (error) => resolve((exit ??= { code: null, signal: null, error })));
    // "close" rather than "exit": it waits for the output pipes, which the server shares, so the last lines
    // are in the excerpt and the server itself is gone too.
    child.once("close", (code, signal) => resolve((exit ??= { code, signal })));
  }).finally(() => live.delete(child));
  if (!exitHookInstalled) process.on("exit", stopAllOnExit);
  exitHookInstalled = true;
  live.add(child);
  let stopping = false;
  // Shutdown logs a burst of "context canceled" errors that are expected; keep them out of the caller's log.
  const onLine = options.onLine && ((line: string) => stopping || options.onLine?.(line));
  const outputExcerpt = collectLines(child, onLine);
  const pid = child.pid ?? -1;
  const stop = async (graceMs: number): Promise<void> => {
    if (exit !== undefined || pid === -1) return;
    stopping = true;
    signalQuietly(pid, "SIGTERM");
    // The watchdog SIGKILLs the server after graceMs itself; this catches a watchdog that is stuck too.
    const timer = setTimeout(() => signalQuietly(-pid, "SIGKILL"), graceMs + 2_000);
    await exited;
    clearTimeout(timer);
  };
  return { pid, exited, exitInfo: () => exit, outputExcerpt, stop };
}
