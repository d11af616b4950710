import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { addOutputOption, type OutputFlags } from "../options/output-format.js";
import { parsePositiveNumber } from "../options/parse-options.js";
import { jsonOutput } from "../render/json-output.js";
import { shellQuote } from "../../terminal/shell-quote.js";

interface ForkFlags extends OutputFlags {
  turn: number;
  id?: string;
  agent?: string;
  model?: string;
  agents?: string;
}

/** The `defineMiddleware` modules of the agents module `--agents` names: the fork's replay runs them. */
async function workflowModules(scope: CliScope, file: string | undefined): Promise<string[]> {
  if (!file) return [];
  const [{ importAgentSet }, { workflowModulesOf }] = await Promise.all([
    import("../serve/agent-set.js"),
    import("../../define-agent.js"),
  ]);
  return workflowModulesOf((await importAgentSet(file, scope.io.cwd)).agents);
}

async function fork(scope: CliScope, [sessionId]: [string], options: ForkFlags): Promise<number> {
  // The fork replays the session's history in a replay worker, whose state changes are not worth a line each.
  const [{ installQuietRuntime }, { MissingPackageError }, { REPLAYING_A_HISTORY }] = await Promise.all([
    import("../serve/serve-worker.js"),
    import("../../runtime/optional-package.js"),
    import("../../runtime/temporal-worker.js"),
  ]);
  try {
    installQuietRuntime(scope.io.stderr, "ERROR", false, REPLAYING_A_HISTORY);
  } catch (error) {
    // Else a runtime is installed already (the CLI run inside another program): its logger stays.
    if (error instanceof MissingPackageError) throw error;
  }
  const modules = await workflowModules(scope, options.agents);
  const client = await scope.client();
  const forked = await client.session(sessionId).fork({
    atTurn: options.turn,
    ...(modules.length > 0 ? { workflowModules: modules } : {}),
    ...(options.id ? { newSessionId: options.id } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  if (options.output !== "table") {
    scope.io.stdout(jsonOutput(forked, options.output));
    return 0;
  }
  const prefix = scope.globals.commandPrefix;
  const run = `${prefix} run ${shellQuote(forked.agent)} --session ${shellQuote(forked.sessionId)} "<your message>"`;
  scope.io.stdout(
    `${forked.sessionId}\n` +
      `forked from session ${sessionId} at the end of turn ${options.turn}: ${forked.messageCount} messages, ` +
      `agent ${forked.agent}${options.model ? `, model ${options.model}` : ""}\n` +
      `continue it: ${run}\n` +
      `show it: ${prefix} show ${shellQuote(forked.sessionId)}\n`,
  );
  return 0;
}

/** `lite-agent fork <session> --turn N`: a new session with the conversation of another at the end of turn N. */
export function registerForkCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("fork")
    .description(
      "start a new session whose conversation is another's at the end of turn N (read from its history; nothing reruns)",
    )
    .argument("<session>", "the session to fork")
    .requiredOption("--turn <n>", "the turn (counted across the session's runs, from 1)", parsePositiveNumber)
    .option("--id <session>", "the new session's id (default: a new id)")
    .option("--agent <name>", "run the fork on this agent instead of the session's")
    .option("--model <id>", "run the fork on this model instead of the agent's")
    .option(
      "--agents <module>",
      "the agents module the session's workers serve: reading the history replays its defineMiddleware modules",
    );
  addOutputOption(command, "the new session as one JSON object").action(
    commandAction<[string], ForkFlags>(runtime, fork),
  );
}
