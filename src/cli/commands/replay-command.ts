import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { CliError, usageError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

/** Reads and parses an exported history (`-` reads stdin); a file that is not one is a usage error. */
export function readHistoryFile(file: string, cwd: string): { history: unknown; events: number } {
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : path.resolve(cwd, file), "utf8");
  } catch (error) {
    throw usageError(`cannot read ${file}: ${errorMessage(error)}`);
  }
  let history: unknown;
  try {
    history = JSON.parse(text);
  } catch (error) {
    throw usageError(`${file} is not JSON: ${errorMessage(error)}`);
  }
  const events = (history as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0)
    throw usageError(
      `${file} is not a workflow history (it has no "events"); export one with 'lite-agent history <session> -o ${file}'`,
    );
  return { history, events: events.length };
}

async function isDeterminismError(error: unknown): Promise<boolean> {
  const { DeterminismViolationError } = await import("@temporalio/workflow");
  return (
    error instanceof DeterminismViolationError ||
    (error instanceof Error && /nondetermin|determinism/i.test(`${error.name} ${error.message}`))
  );
}

async function replay(scope: CliScope, [file]: [string]): Promise<number> {
  const { history, events } = readHistoryFile(file, scope.io.cwd);
  const [{ replaySessionHistory }, { installQuietRuntime }, { REPLAYING_A_HISTORY }] = await Promise.all([
    import("../../worker/replay-history.js"),
    import("../serve/serve-worker.js"),
    import("../../runtime/temporal-worker.js"),
  ]);
  // The outcome is reported below; the core's own warning about the same failure would only repeat it. Without
  // @temporalio/worker this fails at once with the npm install to run.
  installQuietRuntime(scope.io.stderr, "ERROR", false, REPLAYING_A_HISTORY);
  try {
    await replaySessionHistory(history);
  } catch (error) {
    if (await isDeterminismError(error)) {
      throw new CliError(
        `determinism error: the current workflow code does not reproduce ${file}:\n  ${errorMessage(error)}`,
      );
    }
    throw new CliError(`replay of ${file} failed: ${errorMessage(error)}`);
  }
  scope.io.stdout(
    `ok: the current workflow code replays ${file} (${events} events) without a determinism error\n`,
  );
  return 0;
}

/** `lite-agent replay <file>`: checks an exported history against the current workflow code. */
export function registerReplayCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("replay")
    .description(
      "replay an exported history against the current workflow code; exit 1 on a determinism error",
    )
    .argument(
      "<file>",
      "a history exported with 'lite-agent history' or 'temporal workflow show --output json' (- for stdin)",
    )
    .action(commandAction<[string], object>(runtime, replay));
}
