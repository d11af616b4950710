import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { CliError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";

interface HistoryOptions {
  output?: string;
}

function eventCount(history: unknown): number {
  const events = (history as { events?: unknown }).events;
  return Array.isArray(events) ? events.length : 0;
}

/** The session's history; fetching one of an unknown session fails with a bare gRPC NOT_FOUND, reworded here. */
async function fetchHistory(scope: CliScope, sessionId: string): Promise<unknown> {
  const client = await scope.client();
  try {
    return await client.session(sessionId).history();
  } catch (error) {
    if (/NOT_FOUND/.test(errorMessage(error)))
      throw new CliError(`history: session '${sessionId}' not found`);
    throw error;
  }
}

async function history(scope: CliScope, [sessionId]: [string], options: HistoryOptions): Promise<number> {
  const exported = await fetchHistory(scope, sessionId);
  const json = `${JSON.stringify(exported, null, 2)}\n`;
  if (!options.output) {
    scope.io.stdout(json);
    return 0;
  }
  const file = path.resolve(scope.io.cwd, options.output);
  writeFileSync(file, json);
  scope.note(`wrote the history of session ${sessionId} (${eventCount(exported)} events) to ${file}`);
  return 0;
}

/** `lite-agent history <session>`: exports the session's current workflow history as Temporal's JSON. */
export function registerHistoryCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("history")
    .description("export a session's workflow history as JSON (for replay, or a bug report)")
    .argument("<session>", "the session id")
    .option("-o, --output <file>", "write it to this file instead of stdout")
    .action(commandAction<[string], HistoryOptions>(runtime, history));
}
