import { readdirSync } from "node:fs";
import { join } from "node:path";

/** How deep the listing of a skill's folder goes: its files, and those of its direct subfolders. */
const LISTING_DEPTH = 2;

/**
 * The files of a skill's folder, two levels deep, as an indented tree (folders end with `/`, `SKILL.md` left out),
 * so the model knows which files it can read; e.g. `"scripts/\n  stats.py\ntemplate.md"`. Empty when there are none.
 */
export function skillFolderListing(dir: string, depth = LISTING_DEPTH): string {
  return listLevel(dir, depth, "").join("\n");
}

function listLevel(dir: string, depth: number, indent: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !(indent === "" && entry.name === "SKILL.md"))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      lines.push(`${indent}${entry.name}/`);
      if (depth > 1) lines.push(...listLevel(join(dir, entry.name), depth - 1, `${indent}  `));
    } else lines.push(`${indent}${entry.name}`);
  }
  return lines;
}
