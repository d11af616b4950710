import type { Command } from "commander";
import { resolveDecider, resolveSigner } from "../options/approver-key.js";
import { CliError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { followRun } from "../follow-run.js";
import { parseWholeNumber } from "../options/parse-options.js";
import { addOutputOption, type OutputFlags } from "../options/output-format.js";
import { addResponderOptions, type ResponderFlags } from "../options/responder-options.js";

interface WatchOptions extends ResponderFlags, OutputFlags {
  run?: string;
  from?: number;
}

/**
 * The run to watch (the one named, else the one in progress, else the next queued) and where its events begin, when
 * the session says: a reader from an earlier offset reads the session's earlier events first (from its history, when
 * it no longer keeps them) only to pass over them.
 */
async function runToWatch(
  scope: CliScope,
  sessionId: string,
  named: string | undefined,
): Promise<{ runId: string; from?: number }> {
  if (named) return { runId: named };
  const status = await (await scope.client()).session(sessionId).describe();
  const current = status.currentRun;
  if (current)
    return { runId: current.runId, ...(current.offset === undefined ? {} : { from: current.offset }) };
  // A queued run's events all come after what the session has published so far.
  const queued = status.queuedRuns[0];
  if (queued) return { runId: queued, from: status.offset };
  throw new CliError(
    `session '${sessionId}' has no run in progress or queued; pass --run <id> to see a finished run's events`,
  );
}

async function watch(scope: CliScope, [sessionId]: [string], options: WatchOptions): Promise<number> {
  const signer = await resolveSigner(options.keyFile, scope.io);
  const actor = resolveDecider(options.actor, signer, scope.io);
  const { runId, from } = await runToWatch(scope, sessionId, options.run);
  scope.note(
    scope.style.dim(`watching run ${runId} of session ${sessionId} (Ctrl-C stops watching; the run goes on)`),
  );
  return followRun(scope, await scope.client(), {
    ...options,
    sessionId,
    runId,
    fromOffset: options.from ?? from ?? 0,
    actor,
    ...(signer ? { signer } : {}),
  });
}

/** `lite-agent watch <session>`: follows a run's events (from the start, or from an offset) to its end. */
export function registerWatchCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("watch")
    .description("follow a run's events to its end (default: the run in progress)")
    .argument("<session>", "the session id")
    .option("--run <id>", "the run to follow (default: the current run, else the next queued)")
    .option(
      "--from <offset>",
      "start at this stream offset (default 0: the run's first event)",
      parseWholeNumber,
    );
  addOutputOption(command, "one JSON event per line either way");
  addResponderOptions(command).action(commandAction<[string], WatchOptions>(runtime, watch));
}
