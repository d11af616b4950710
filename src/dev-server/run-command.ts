import { spawn } from "node:child_process";
import type { CommandSpec } from "./cli-binary/temporal-cli-sources.js";

/** How a finished command ended, with the end of its output for error messages. */
export interface CommandResult {
  readonly ok: boolean;
  /** The exit code, or `undefined` when the command could not start, timed out or died of a signal. */
  readonly code: number | undefined;
  /** Why it failed, in one line (empty when it succeeded). */
  readonly reason: string;
  /** The last lines of stdout and stderr, interleaved. */
  readonly output: string;
}

/**
 * Runs a command to completion with a timeout, keeping the last `outputLimit` characters of its output. Never
 * throws, so callers can try the next option.
 */
export function runCommand(spec: CommandSpec, timeoutMs: number, outputLimit = 4000): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-outputLimit);
    };
    const child = spawn(spec.file, [...spec.args], {
      env: { ...process.env, ...spec.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => resolve({ ok: false, code: undefined, reason: error.message, output }));
    child.on("close", (code, signal) => {
      const reason =
        code === 0
          ? ""
          : signal !== null
            ? `killed by ${signal} (timeout ${timeoutMs} ms?)`
            : `exit code ${code}`;
      resolve({ ok: code === 0, code: code ?? undefined, reason, output: output.trim() });
    });
  });
}
