import type { Command } from "commander";
import { renderTranscript } from "../../kernel/compaction/passes/render-transcript.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface TranscriptOptions {
  json?: boolean;
}

async function transcript(
  scope: CliScope,
  [sessionId]: [string],
  options: TranscriptOptions,
): Promise<number> {
  const messages = await (await scope.client()).session(sessionId).transcript();
  if (options.json) {
    scope.io.stdout(`${JSON.stringify(messages, null, 2)}\n`);
    return 0;
  }
  scope.io.stdout(messages.length === 0 ? "(no messages yet)\n" : `${renderTranscript(messages)}\n`);
  scope.note(`${messages.length} messages in session ${sessionId}`);
  return 0;
}

/**
 * `lite-agent transcript <session>`: every message the session ever held, in order, compactions notwithstanding
 * (archived segments read through the payload storage, then the current conversation).
 */
export function registerTranscriptCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("transcript")
    .description(
      "print a session's whole conversation: what compaction archived, then the current messages (summaries excluded)",
    )
    .argument("<session>", "the session id")
    .option("--json", "print the messages as JSON")
    .action(commandAction<[string], TranscriptOptions>(runtime, transcript));
}
