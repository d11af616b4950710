import { Option, type Command } from "commander";
import { KEY_FILE_DEFAULT } from "./approver-key.js";

/** The options of the commands that follow a run: how its approvals and questions are answered. */
export interface ResponderFlags {
  yes?: boolean;
  no?: boolean;
  answer?: string;
  actor?: string;
  keyFile?: string;
}

/** Where `--actor` defaults from, in every command's help. */
export const ACTOR_DEFAULT = "default $LITE_AGENT_ACTOR, else the OS user name";

/** Adds `--yes`, `--no`, `--answer`, `--actor` and `--key-file`. */
export function addResponderOptions(command: Command): Command {
  return addKeyFileOption(command)
    .addOption(new Option("-y, --yes", "allow every tool call that asks for approval").conflicts("no"))
    .addOption(new Option("--no", "deny every tool call that asks for approval"))
    .option("--answer <text>", "answer every question (ask_user) with this text")
    .option("--actor <name>", `who decides, recorded with each decision (${ACTOR_DEFAULT})`);
}

/** Adds `--actor` and `--reason` to a decision command, and `--key-file` (also `answer`'s). */
export function addDecisionOptions(command: Command): Command {
  return addKeyFileOption(
    command
      .option("--reason <text>", "why (shown to the model on a denial, and kept in the history)")
      .option("--actor <name>", `who decides (${ACTOR_DEFAULT}; with a key, the key's actor)`),
  );
}

/** Adds `--key-file`: the approver key (from `lite-agent keygen`) that signs the decision or answer. */
export function addKeyFileOption(command: Command): Command {
  return command.option("--key-file <path>", `sign with this approver key (${KEY_FILE_DEFAULT})`);
}
