import { wantsColor } from "../terminal/terminal-style.js";
import type { CliIo } from "./cli-io.js";

/** The CLI's io on the real process: its streams, environment and working directory. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    promptOutput: process.stderr,
    interactive: process.stdin.isTTY === true,
    color: wantsColor(process.stdout, process.env),
    env: process.env,
    cwd: process.cwd(),
  };
}
