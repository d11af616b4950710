import type { OutputFormat } from "../options/output-format.js";

/** One value as `-o json` (indented) or `-o jsonl` (on one line) prints it; ends with a newline. */
export function jsonOutput(value: unknown, format: Exclude<OutputFormat, "table">): string {
  return `${format === "json" ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`;
}

/** A list as `-o json` prints it (one indented array) or `-o jsonl` (one object per line). */
export function jsonListOutput(items: readonly unknown[], format: Exclude<OutputFormat, "table">): string {
  if (format === "json") return `${JSON.stringify(items, null, 2)}\n`;
  return items.map((item) => `${JSON.stringify(item)}\n`).join("");
}
