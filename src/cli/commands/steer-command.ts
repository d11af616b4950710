import type { Command } from "commander";
import { usageError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface SteerOptions {
  followUp?: boolean;
}

async function steer(
  scope: CliScope,
  [sessionId, words]: [string, string[]],
  options: SteerOptions,
): Promise<number> {
  const text = words.join(" ").trim();
  if (text === "") throw usageError("the message is empty");
  const client = await scope.client();
  if (options.followUp) {
    await client.session(sessionId).followUp(text);
    scope.io.stdout(`follow-up queued in session ${sessionId}: it is sent when the model would stop\n`);
  } else {
    await client.session(sessionId).steer(text);
    scope.io.stdout(
      `steer queued in session ${sessionId}: the model sees it at the start of its next turn\n`,
    );
  }
  return 0;
}

/** `lite-agent steer <session> <text...>`: adds a message for the model's next turn (or `--follow-up`). */
export function registerSteerCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("steer")
    .description("add a message the model sees at the start of its next turn")
    .argument("<session>", "the session id")
    .argument("<text...>", "the message")
    .option("--follow-up", "send it only when the model would stop, instead of at the next turn")
    .action(commandAction<[string, string[]], SteerOptions>(runtime, steer));
}
