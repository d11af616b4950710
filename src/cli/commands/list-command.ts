import type { Command } from "commander";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { CliError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { listQuery, SESSION_STATUSES, type ListFilters } from "../options/list-query.js";
import { addOutputOption, type OutputFlags } from "../options/output-format.js";
import { parsePositiveNumber } from "../options/parse-options.js";
import { jsonListOutput } from "../render/json-output.js";
import { SESSION_TABLE_HEADER, sessionCells, sessionRow, type SessionRow } from "../render/session-rows.js";
import { textTable } from "../render/text-table.js";

interface ListOptions extends ListFilters, OutputFlags {
  limit: number;
}

async function listRows(
  scope: CliScope,
  query: string | undefined,
  limit: number,
): Promise<{ rows: SessionRow[]; more: boolean }> {
  const rows: SessionRow[] = [];
  try {
    for await (const listing of (await scope.client()).list(query ? { query } : {})) {
      if (rows.length === limit) return { rows, more: true };
      rows.push(sessionRow(listing));
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `the server rejected the list query${query ? ` (${query})` : ""}: ${errorMessage(error)}`,
    );
  }
  return { rows, more: false };
}

async function list(scope: CliScope, _args: [], options: ListOptions): Promise<number> {
  const query = listQuery(options);
  const { rows, more } = await listRows(scope, query, options.limit);
  if (options.output !== "table") {
    scope.io.stdout(jsonListOutput(rows, options.output));
  } else if (rows.length === 0) {
    scope.note(`no sessions on task queue '${scope.globals.taskQueue}'${query ? ` matching ${query}` : ""}`);
  } else {
    scope.io.stdout(textTable(SESSION_TABLE_HEADER, rows.map(sessionCells)));
  }
  if (more) scope.note(`showing the first ${options.limit}; raise --limit to see more`);
  return 0;
}

/** `lite-agent list`: sessions by a visibility query on the AgentName / AgentStatus search attributes. */
export function registerListCommand(program: Command, runtime: CliRuntime): void {
  const command = program
    .command("list")
    .description("list sessions (newest first), e.g. every session awaiting approval")
    .option("--status <status>", `only sessions with this AgentStatus: ${SESSION_STATUSES.join(", ")}`)
    .option("--agent <name>", "only sessions of this agent")
    .option("--query <filter>", `a raw visibility filter, ANDed with the rest (e.g. 'AgentTokens > 1000')`)
    .option("--all", "also list the executions sessions left behind when they continued as new")
    .option("--limit <n>", "show at most this many", parsePositiveNumber, 50);
  addOutputOption(command, "the sessions as one JSON array, or one JSON object per line").action(
    commandAction<[], ListOptions>(runtime, list),
  );
}
