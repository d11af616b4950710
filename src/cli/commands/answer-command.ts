import type { Command } from "commander";
import type { UserAnswer } from "../../kernel/permission/types.js";
import { usageError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { formatAnswer } from "../../terminal/human-replies.js";
import { parseCommaList } from "../options/parse-options.js";
import { resolveDecider, resolveSigner } from "../options/approver-key.js";
import { ACTOR_DEFAULT, addKeyFileOption } from "../options/responder-options.js";

interface AnswerOptions {
  select?: string[];
  actor?: string;
  keyFile?: string;
}

async function answer(
  scope: CliScope,
  [sessionId, callId, words]: [string, string, string[]],
  options: AnswerOptions,
): Promise<number> {
  const text = words.join(" ").trim();
  if (text === "" && !options.select)
    throw usageError("give the answer's text, or --select with the chosen options");
  const reply: UserAnswer = {
    ...(text === "" ? {} : { text }),
    ...(options.select ? { selected: options.select } : {}),
  };
  const signer = await resolveSigner(options.keyFile, scope.io);
  const actor = resolveDecider(options.actor, signer, scope.io);
  await (
    await scope.client()
  )
    .session(sessionId)
    .answer(callId, reply, { actor, ...(signer ? { signer } : {}) });
  scope.io.stdout(`answered ${callId} in session ${sessionId}: ${formatAnswer(reply)}\n`);
  return 0;
}

/** `lite-agent answer <session> <callId> <text...>`: answers a question the agent asked (`ask_user`). */
export function registerAnswerCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("answer")
    .description("answer a question the agent asked (ask_user)")
    .argument("<session>", "the session id")
    .argument("<callId>", "the question's call id (see lite-agent show)")
    .argument("[text...]", "the answer")
    .option("--select <options>", "the chosen options, comma-separated", parseCommaList)
    .option("--actor <name>", `who answers (${ACTOR_DEFAULT}; with a key, the key's actor)`);
  addKeyFileOption(command).action(commandAction<[string, string, string[]], AnswerOptions>(runtime, answer));
}
