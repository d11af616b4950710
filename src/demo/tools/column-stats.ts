import type { CsvTable } from "./csv-table.js";

/** The totals of one group of rows. */
export interface GroupStats {
  key: string;
  count: number;
  sum: number;
  mean: number;
}

/** Statistics of the numeric cells of one CSV column. */
export interface ColumnStats {
  column: string;
  /** Numeric cells used. */
  count: number;
  /** Cells that were empty or not a number, left out. */
  skipped: number;
  sum: number;
  mean: number;
  min: number;
  max: number;
  /** Per value of the `groupBy` column, largest sum first. */
  groupBy?: string;
  groups?: GroupStats[];
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The number a cell holds, or undefined when it holds none (empty, text, "1,000"). */
export function parseNumberCell(cell: string | undefined): number | undefined {
  const text = (cell ?? "").trim();
  return NUMBER.test(text) ? Number(text) : undefined;
}

/** Rounds away binary floating-point noise (0.1 + 0.2) so results read as people expect. */
function tidy(value: number): number {
  return Number(value.toFixed(6));
}

/** The index of a column, matched without regard to case; a clear error names the columns there are. */
export function columnIndex(table: CsvTable, column: string): number {
  const index = table.header.findIndex((name) => name.toLowerCase() === column.trim().toLowerCase());
  if (index < 0) throw new Error(`no column '${column}'; the columns are: ${table.header.join(", ")}`);
  return index;
}

function groupTotals(table: CsvTable, valueIndex: number, keyIndex: number): GroupStats[] {
  const totals = new Map<string, { count: number; sum: number }>();
  for (const row of table.rows) {
    const value = parseNumberCell(row[valueIndex]);
    if (value === undefined) continue;
    const key = (row[keyIndex] ?? "").trim();
    const total = totals.get(key) ?? { count: 0, sum: 0 };
    totals.set(key, { count: total.count + 1, sum: total.sum + value });
  }
  const groups = [...totals].map(([key, { count, sum }]) => ({
    key,
    count,
    sum: tidy(sum),
    mean: tidy(sum / count),
  }));
  return groups.sort((a, b) => b.sum - a.sum || a.key.localeCompare(b.key));
}

/**
 * Count, sum, mean, min and max of a column's numeric cells, optionally also per value of another column.
 * Throws when a column does not exist or the column holds no number at all.
 */
export function columnStats(table: CsvTable, column: string, groupBy?: string): ColumnStats {
  const index = columnIndex(table, column);
  const values = table.rows.flatMap((row) => parseNumberCell(row[index]) ?? []);
  const name = table.header[index] ?? column;
  if (values.length === 0) throw new Error(`column '${name}' holds no numbers`);
  const sum = values.reduce((a, b) => a + b, 0);
  const stats: ColumnStats = {
    column: name,
    count: values.length,
    skipped: table.rows.length - values.length,
    sum: tidy(sum),
    mean: tidy(sum / values.length),
    min: Math.min(...values),
    max: Math.max(...values),
  };
  if (groupBy === undefined) return stats;
  const keyIndex = columnIndex(table, groupBy);
  return { ...stats, groupBy: table.header[keyIndex], groups: groupTotals(table, index, keyIndex) };
}
