import { CommanderError } from "commander";
import { AgentError, errorMessage } from "../kernel/vocabulary/errors.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import type { CliRuntime } from "./command-action.js";
import { EXIT } from "./exit-codes.js";
import { buildProgram } from "./program.js";

/** Commander's ways of ending that are not misuse. */
const CLEAN_EXITS = new Set(["commander.helpDisplayed", "commander.version"]);

/** The exit code for an error that ended a command, after saying what went wrong (commander already did). */
function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) return CLEAN_EXITS.has(error.code) ? EXIT.ok : EXIT.usage;
  if (error instanceof CliError) {
    io.stderr(`error: ${error.message}\n`);
    return error.exitCode;
  }
  // SessionErrors (unknown session, rejected decision...) and other AgentErrors carry a message for people.
  if (error instanceof AgentError) {
    io.stderr(`error: ${error.message}\n`);
    return EXIT.failure;
  }
  io.stderr(`error: ${errorMessage(error)}\n`);
  if (io.env.LITE_AGENT_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return EXIT.failure;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code: 0 success, 1 failure,
 * 2 misuse, 130 interrupted (see {@link EXIT}).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const runtime: CliRuntime = { io, exitCode: EXIT.ok };
  const program = buildProgram(runtime);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return runtime.exitCode;
  } catch (error) {
    return reportError(error, io);
  }
}
