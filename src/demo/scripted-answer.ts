import type { ColumnStats } from "./tools/column-stats.js";
import type { SandboxFacts, TableShape } from "./sandbox-facts.js";

/** Call ids of the derived figures, so the answer can find their results. */
export const RATIO_CALL = "ratio";
export const SHARE_CALL = "share";

/** A number as people write it: integers as they are, others with at most two decimals. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

/** "units" → "unit": good enough for column names in a sentence. */
function singular(name: string): string {
  return name.length > 3 && name.endsWith("s") && !name.endsWith("ss") ? name.slice(0, -1) : name;
}

/** The main measure (the last numeric column) and the base it is divided by (the first), when there are two. */
export function measures(stats: readonly ColumnStats[]): {
  main: ColumnStats | undefined;
  base: ColumnStats | undefined;
} {
  const main = stats.at(-1);
  const base = stats.length >= 2 ? stats[0] : undefined;
  return { main, base };
}

function calculation(facts: SandboxFacts, suffix: string): number | undefined {
  for (const [id, value] of facts.calculations) if (id.endsWith(`_${suffix}`)) return value;
  return undefined;
}

function derivedLines(facts: SandboxFacts): string[] {
  const { main, base } = measures(facts.stats);
  const lines: string[] = [];
  const ratio = calculation(facts, RATIO_CALL);
  if (main && base && ratio !== undefined) {
    lines.push(
      `- Average ${main.column} per ${singular(base.column)}: ${formatNumber(ratio)} (${formatNumber(main.sum)} / ${formatNumber(base.sum)}).`,
    );
  }
  const top = main?.groups?.[0];
  const share = calculation(facts, SHARE_CALL);
  if (main && top && share !== undefined) {
    lines.push(
      `- By ${main.groupBy}, ${main.column} is highest for ${top.key}: ${formatNumber(top.sum)} of ${formatNumber(main.sum)} (${formatNumber(share)}%).`,
    );
  }
  return lines;
}

/**
 * The scripted model's final answer, written only from tool results: the row count from the file it read,
 * the totals from `column_stats`, the ratios from `calculate`.
 */
export function scriptedAnswer(facts: SandboxFacts, shape: TableShape): string {
  const lines = ["Here is what the sandbox data says (every number comes from a tool result):"];
  lines.push(
    `- ${facts.csvFile} has ${shape.table.rows.length} rows with the columns ${shape.table.header.join(", ")}.`,
  );
  for (const stats of facts.stats) {
    lines.push(
      `- Total ${stats.column}: ${formatNumber(stats.sum)} (mean ${formatNumber(stats.mean)} per row, from ${formatNumber(stats.min)} to ${formatNumber(stats.max)}).`,
    );
  }
  lines.push(...derivedLines(facts));
  const firstLine = facts.docFile
    ? facts.contents
        .get(facts.docFile)
        ?.split("\n")
        .find((line) => line.trim() !== "")
    : undefined;
  if (facts.docFile && firstLine) lines.push(`${facts.docFile} describes the data as: "${firstLine.trim()}"`);
  return lines.join("\n");
}
