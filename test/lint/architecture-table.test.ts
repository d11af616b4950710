import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md's table of folders is the diagram of `src/`: it names every folder that holds code and every
 * entry file directly under `src/`, each once, and nothing that does not exist.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const src = path.join(root, "src");

/** The `src/…` paths in the first column of the table that follows the "The folder tree is the diagram" line. */
function tablePaths(): string[] {
  const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const rows = doc.slice(doc.indexOf("The folder tree is the diagram")).split("\n");
  const start = rows.findIndex((row) => row.startsWith("| Folder"));
  const table = rows
    .slice(start + 2)
    .filter((row, index, all) => all.slice(0, index + 1).every((r) => r.startsWith("|")));
  return table.flatMap((row) =>
    [...row.split("|")[1]!.matchAll(/`(src\/[^`]*)`/g)].map((match) => match[1]!),
  );
}

/** Every folder under `src/` with a file of its own (as `src/a/b/`) and every file directly in `src/`. */
function treePaths(): string[] {
  const entries = readdirSync(src, { recursive: true, withFileTypes: true });
  const folders = new Set<string>();
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const folder = path.relative(root, entry.parentPath).split(path.sep).join("/");
    if (folder === "src") files.push(`src/${entry.name}`);
    else folders.add(`${folder}/`);
  }
  return [...folders, ...files];
}

describe("docs/architecture.md's table of folders", () => {
  it("names every folder and entry file of src/ once, and nothing else", () => {
    const named = tablePaths();
    expect(named.length).toBeGreaterThan(20);
    expect(
      named.filter((entry, index) => named.indexOf(entry) !== index),
      "named twice",
    ).toEqual([]);
    expect(
      treePaths().filter((entry) => !named.includes(entry)),
      "missing from the table",
    ).toEqual([]);
    expect(
      named.filter((entry) => !treePaths().includes(entry)),
      "in the table, not in src/",
    ).toEqual([]);
  });
});
