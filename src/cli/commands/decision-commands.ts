import type { Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { resolveDecider, resolveSigner } from "../options/approver-key.js";
import { addDecisionOptions } from "../options/responder-options.js";

interface DecisionOptions {
  reason?: string;
  actor?: string;
  keyFile?: string;
}

function decide(decision: "allow" | "deny") {
  return async (
    scope: CliScope,
    [sessionId, callId]: [string, string],
    options: DecisionOptions,
  ): Promise<number> => {
    const signer = await resolveSigner(options.keyFile, scope.io);
    const request = {
      actor: resolveDecider(options.actor, signer, scope.io),
      ...(options.reason ? { reason: options.reason } : {}),
      ...(signer ? { signer } : {}),
    };
    const client = await scope.client();
    if (decision === "allow") await client.session(sessionId).approve(callId, request);
    else await client.session(sessionId).deny(callId, request);
    scope.io.stdout(
      `${decision === "allow" ? "allowed" : "denied"} ${callId} in session ${sessionId} (by ${request.actor}${signer ? `, signed with key ${signer.keyId}` : ""})\n`,
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
