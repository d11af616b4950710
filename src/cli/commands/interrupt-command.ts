import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

async function interrupt(scope: CliScope, [sessionId, words]: [string, string[]]): Promise<number> {
  const text = words.join(" ").trim();
  const interrupted = await (
    await scope.client()
  )
    .session(sessionId)
    .interrupt(text === "" ? undefined : text);
  const steered = text === "" ? "" : "; the message is steered in first";
  scope.io.stdout(
    interrupted
      ? `interrupted the model call in session ${sessionId}: it re-plans now${steered}\n`
      : `no model call was in flight in session ${sessionId}${text === "" ? "" : "; the message is queued for the next turn"}\n`,
  );
  return 0;
}

/** `lite-agent interrupt <session> [text...]`: cancels the in-flight model call and re-plans at once. */
export function registerInterruptCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("interrupt")
    .description("cancel the in-flight model call and re-plan at once (with the message, when given)")
    .argument("<session>", "the session id")
    .argument("[text...]", "a message to steer in first")
    .action(commandAction<[string, string[]], object>(runtime, interrupt));
}
