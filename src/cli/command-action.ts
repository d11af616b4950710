import type { Command } from "commander";
import type { CliIo } from "./cli-io.js";
import { openScope, type CliScope } from "./cli-scope.js";
import { inCommandTerms } from "./options/command-terms.js";

/** The CLI's state across one invocation: its io and the exit code the command chose. */
export interface CliRuntime {
  io: CliIo;
  exitCode: number;
}

/** A command's body: its positional arguments and options; returns the exit code (default 0). */
export type CommandHandler<A extends unknown[], O> = (
  scope: CliScope,
  args: A,
  options: O,
) => Promise<number | void>;

/**
 * Adapts a handler to commander's `action(...args, options, command)`: opens the scope (global options, lazy
 * client), records the exit code, and closes the client whatever happens. Errors propagate to `runCli`, a failed
 * session operation named after this command.
 */
export function commandAction<A extends unknown[], O>(runtime: CliRuntime, handler: CommandHandler<A, O>) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received.at(-1) as Command;
    const options = received.at(-2) as O;
    const { scope, close } = openScope(runtime.io, command);
    try {
      runtime.exitCode = (await handler(scope, received.slice(0, -2) as A, options)) ?? 0;
    } catch (error) {
      throw await inCommandTerms(error, command.name());
    } finally {
      await close();
    }
  };
}
