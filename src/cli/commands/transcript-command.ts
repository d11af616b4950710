import type { Command } from "commander";
import { renderTranscript } from "../../kernel/compaction/passes/render-transcript.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { addOutputOption, type OutputFlags } from "../options/output-format.js";
import { jsonListOutput } from "../render/json-output.js";

async function transcript(scope: CliScope, [sessionId]: [string], options: OutputFlags): Promise<number> {
  const messages = await (await scope.client()).session(sessionId).transcript();
  if (options.output !== "table") {
    scope.io.stdout(jsonListOutput(messages, options.output));
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
  const command = program
    .command("transcript")
    .description(
      "print a session's whole conversation: what compaction archived, then the current messages (summaries excluded)",
    )
    .argument("<session>", "the session id");
  addOutputOption(command, "the messages as one JSON array, or one JSON message per line").action(
    commandAction<[string], OutputFlags>(runtime, transcript),
  );
}
