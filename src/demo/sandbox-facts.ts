import { parseNumberCell, type ColumnStats } from "./tools/column-stats.js";
import { parseCsv, type CsvTable } from "./tools/csv-table.js";
import type { ToolExchange } from "./tool-exchanges.js";

/** What the scripted model has learnt from the tool results so far. */
export interface SandboxFacts {
  /** Files at the sandbox root, from `list_files`; undefined before it was called. */
  files?: string[];
  /** The first CSV and the first text document found. */
  csvFile?: string;
  docFile?: string;
  /** Contents read with `read_file`, by path. */
  contents: Map<string, string>;
  /** `column_stats` results, in call order. */
  stats: ColumnStats[];
  /** `calculate` results, by call id. */
  calculations: Map<string, number>;
}

const FILE_LINE = /^(.+) \((\d+) bytes\)$/;

function successful(exchanges: readonly ToolExchange[], name: string): ToolExchange[] {
  return exchanges.filter(
    (exchange) => exchange.name === name && exchange.result !== undefined && !exchange.isError,
  );
}

function inputPath(exchange: ToolExchange): string {
  const input = exchange.input as { path?: unknown } | null;
  return typeof input?.path === "string" ? input.path : "";
}

/** Reads the facts out of the tool results (never out of the sandbox directly: the model only sees results). */
export function sandboxFacts(exchanges: readonly ToolExchange[]): SandboxFacts {
  const listing = successful(exchanges, "list_files").at(-1)?.result;
  const files = listing?.split("\n").flatMap((line) => FILE_LINE.exec(line)?.[1] ?? []);
  const contents = new Map(
    successful(exchanges, "read_file").map((exchange) => [inputPath(exchange), exchange.result ?? ""]),
  );
  const stats = successful(exchanges, "column_stats").map(
    (exchange) => JSON.parse(exchange.result ?? "{}") as ColumnStats,
  );
  const calculations = new Map(
    successful(exchanges, "calculate").map((exchange) => [exchange.id, Number(exchange.result)]),
  );
  const facts: SandboxFacts = { contents, stats, calculations };
  if (files === undefined) return facts;
  const csvFile = files.find((file) => file.toLowerCase().endsWith(".csv"));
  const docFile = files.find((file) => /\.(txt|md)$/i.test(file));
  return { ...facts, files, ...(csvFile ? { csvFile } : {}), ...(docFile ? { docFile } : {}) };
}

/** The columns of a table whose first row holds numbers, and the text columns worth grouping by. */
export interface TableShape {
  table: CsvTable;
  numeric: string[];
  /** Text columns that do not start with a digit (dates and ids make poor groups). */
  groupable: string[];
}

/** Classifies a CSV's columns from its first data row. */
export function tableShape(csvText: string): TableShape {
  const table = parseCsv(csvText);
  const first = table.rows[0] ?? [];
  const numeric = table.header.filter((_, i) => parseNumberCell(first[i]) !== undefined);
  const groupable = table.header.filter(
    (name, i) => !numeric.includes(name) && !/^\s*\d/.test(first[i] ?? "0"),
  );
  return { table, numeric, groupable };
}
