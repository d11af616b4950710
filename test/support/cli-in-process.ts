import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/cli/cli-io.js";
import { runCli } from "../../src/cli/run-cli.js";

/** What one in-process CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** An in-process CLI run under way: what it printed so far, and its end. */
export interface StartedCli {
  printed(): { stdout: string; stderr: string };
  done: Promise<CliRun>;
}

/** Starts the CLI in-process on buffers (no terminal, no colour, the given environment), for commands that serve. */
export function startCliInProcess(argv: string[], env: NodeJS.ProcessEnv = {}): StartedCli {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdin: new PassThrough(),
    promptOutput: new PassThrough(),
    interactive: false,
    color: false,
    env,
    cwd: process.cwd(),
  };
  const done = runCli(argv, io).then((code) => ({ code, stdout, stderr }));
  return { printed: () => ({ stdout, stderr }), done };
}

/** Runs the CLI in-process on buffers (no terminal, no colour, the given environment). */
export async function runCliInProcess(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return startCliInProcess(argv, env).done;
}
