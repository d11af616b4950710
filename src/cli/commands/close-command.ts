import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

async function close(scope: CliScope, [sessionId]: [string]): Promise<number> {
  await (await scope.client()).session(sessionId).close();
  scope.io.stdout(
    `session ${sessionId} closed: queued runs still finish; no new runs or steers are accepted\n`,
  );
  return 0;
}

/** `lite-agent close <session>`: ends a session once its queued runs are done. */
export function registerCloseCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("close")
    .description("close a session: queued runs finish, then its workflow completes")
    .argument("<session>", "the session id")
    .action(commandAction<[string], object>(runtime, close));
}
