import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface CancelOptions {
  run?: string;
  reason?: string;
}

async function cancel(scope: CliScope, [sessionId]: [string], options: CancelOptions): Promise<number> {
  const cancelled = await (await scope.client()).session(sessionId).cancel({
    ...(options.run ? { runId: options.run } : {}),
    ...(options.reason ? { reason: options.reason } : {}),
  });
  if (cancelled.length === 0) {
    scope.note(
      options.run
        ? `run ${options.run} of session ${sessionId} is not running or queued: nothing to cancel`
        : `session ${sessionId} has no run in progress: nothing to cancel`,
    );
  }
  for (const runId of cancelled) scope.io.stdout(`cancelled run ${runId} in session ${sessionId}\n`);
  return 0;
}

/** `lite-agent cancel <session>`: ends the run in progress (or the given run) with `done(aborted)`. */
export function registerCancelCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("cancel")
    .description("cancel the run in progress (or the given run, running or queued)")
    .argument("<session>", "the session id")
    .option("--run <id>", "the run to cancel")
    .option("--reason <text>", "why (kept in the history)")
    .action(commandAction<[string], CancelOptions>(runtime, cancel));
}
