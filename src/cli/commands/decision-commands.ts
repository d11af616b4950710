import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { resolveActor } from "../options/actor.js";
import { addDecisionOptions } from "../options/responder-options.js";

interface DecisionOptions {
  reason?: string;
  actor?: string;
}

function decide(decision: "allow" | "deny") {
  return async (
    scope: CliScope,
    [sessionId, callId]: [string, string],
    options: DecisionOptions,
  ): Promise<number> => {
    const request = {
      actor: resolveActor(options.actor, scope.io.env),
      ...(options.reason ? { reason: options.reason } : {}),
    };
    const client = await scope.client();
    if (decision === "allow") await client.session(sessionId).approve(callId, request);
    else await client.session(sessionId).deny(callId, request);
    scope.io.stdout(
      `${decision === "allow" ? "allowed" : "denied"} ${callId} in session ${sessionId} (by ${request.actor})\n`,
    );
    return 0;
  };
}

/** `lite-agent approve` and `lite-agent deny`: decide a tool call that waits for approval. */
export function registerDecisionCommands(program: Command, runtime: CliRuntime): void {
  for (const [name, decision, what] of [
    ["approve", "allow", "allow a tool call that waits for approval"],
    ["deny", "deny", "deny a tool call that waits for approval (the model is told it was denied)"],
  ] as const) {
    const command = program
      .command(name)
      .description(what)
      .argument("<session>", "the session id")
      .argument("<callId>", "the tool call's id (see lite-agent show)");
    addDecisionOptions(command).action(
      commandAction<[string, string], DecisionOptions>(runtime, decide(decision)),
    );
  }
}
