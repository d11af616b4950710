import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { CliError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { addOutputOption, type OutputFlags, type OutputFormat } from "../options/output-format.js";
import { HISTORY_TABLE_HEADER, historyEventCells, historyEvents } from "../render/history-rows.js";
import { jsonListOutput, jsonOutput } from "../render/json-output.js";
import { textTable } from "../render/text-table.js";

interface HistoryOptions extends OutputFlags {
  file?: string;
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

/** The history as `-o` says: Temporal's JSON (what `replay` reads), one event per line, or a table. */
function formatHistory(exported: unknown, output: OutputFormat): string {
  if (output === "json") return jsonOutput(exported, "json");
  const events = historyEvents(exported);
  if (output === "jsonl") return jsonListOutput(events, "jsonl");
  return textTable(HISTORY_TABLE_HEADER, events.map(historyEventCells));
}

async function history(scope: CliScope, [sessionId]: [string], options: HistoryOptions): Promise<number> {
  const exported = await fetchHistory(scope, sessionId);
  const text = formatHistory(exported, options.output);
  if (!options.file) {
    scope.io.stdout(text);
    return 0;
  }
  const file = path.resolve(scope.io.cwd, options.file);
  writeFileSync(file, text);
  const count = historyEvents(exported).length;
  scope.note(`wrote the history of session ${sessionId} (${count} events) to ${file}`);
  return 0;
}

/** `lite-agent history <session>`: exports the session's current workflow history as Temporal's JSON. */
export function registerHistoryCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("history")
    .description("export a session's workflow history as JSON (for replay, or a bug report)")
    .argument("<session>", "the session id")
    .option("--file <path>", "write it to this file instead of stdout");
  addOutputOption(
    command,
    "Temporal's history JSON, which replay reads (the default), or one event per line",
    { fallback: "json", hint: (value) => `To write the history to a file: --file ${value}` },
  ).action(commandAction<[string], HistoryOptions>(runtime, history));
}
