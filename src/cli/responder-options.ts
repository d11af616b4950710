import { Option, type Command } from "commander";

/** The options of the commands that follow a run: how its approvals and questions are answered. */
export interface ResponderFlags {
  yes?: boolean;
  no?: boolean;
  answer?: string;
  actor?: string;
}

/** Who a person deciding from this terminal is: `LITE_AGENT_ACTOR`, else the login name, else `cli`. */
export function defaultActor(env: NodeJS.ProcessEnv): string {
  return env.LITE_AGENT_ACTOR || env.USER || env.USERNAME || "cli";
}

/** Adds `--yes`, `--no`, `--answer` and `--actor`. */
export function addResponderOptions(command: Command): Command {
  return command
    .addOption(new Option("-y, --yes", "allow every tool call that asks for approval").conflicts("no"))
    .addOption(new Option("--no", "deny every tool call that asks for approval"))
    .option("--answer <text>", "answer every question (ask_user) with this text")
    .option(
      "--actor <name>",
      "who decides, recorded with each decision (default $LITE_AGENT_ACTOR or $USER)",
    );
}

/** Adds `--actor` and `--reason` to a decision command. */
export function addDecisionOptions(command: Command): Command {
  return command
    .option("--reason <text>", "why (shown to the model on a denial, and kept in the history)")
    .option("--actor <name>", "who decides (default $LITE_AGENT_ACTOR or $USER)");
}
