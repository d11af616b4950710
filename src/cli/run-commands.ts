import type { CliScope } from "./cli-scope.js";
import { shellQuote } from "../terminal/shell-quote.js";

/** The commands that follow and cancel one run, to print where a user leaves it. */
export interface RunCommands {
  watch: string;
  cancel: string;
}

/** The `watch` and `cancel` command lines of a run, against the same server as this invocation. */
export function runCommands(scope: CliScope, sessionId: string, runId: string): RunCommands {
  const ids = `${shellQuote(sessionId)} --run ${shellQuote(runId)}`;
  return {
    watch: `${scope.globals.commandPrefix} watch ${ids}`,
    cancel: `${scope.globals.commandPrefix} cancel ${ids}`,
  };
}
