import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/cli/cli-io.js";
import { runCli } from "../../src/cli/run-cli.js";

/** What one in-process CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process on buffers (no terminal, no colour, the given environment). */
export async function runCliInProcess(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
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
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
