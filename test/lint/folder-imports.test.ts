import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The import graph of `src/` between its top-level folders (each `src/*.ts` entry file is a node of its own):
 * - it has no cycle, so every folder sits above or below each other one;
 * - the dev tools (`cli/`, `demo/`, `dev-server/`) are never imported by the library (every other folder and entry
 *   file, including folders added later), which ships without them;
 * - only the programs that start a dev server import `dev-server/`: the CLI's `dev` command and the demo.
 */
const src = fileURLToPath(new URL("../../src", import.meta.url));

/** Folders of tools for a developer's machine; the library never imports them. */
const DEV_TOOLS = ["cli/", "demo/", "dev-server/"];

/** The only files of the dev tools that may import `dev-server/` (paths under `src/`, or a folder ending in `/`). */
const DEV_SERVER_IMPORTERS = ["cli/serve/dev-command.ts", "demo/"];

interface Import {
  /** The importing file, relative to `src/`. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** The imported file or folder, relative to `src/`. */
  target: string;
}

/** `cli/` for `cli/commands/run-command.ts`, `worker.ts` for `worker.ts`. */
function nodeOf(file: string): string {
  const [first, ...rest] = file.split("/");
  return rest.length > 0 ? `${first}/` : first!;
}

/** Every relative import of every TypeScript file under `src/`: static, re-exported, type-only and dynamic. */
function relativeImports(): Import[] {
  const files = readdirSync(src, { recursive: true, encoding: "utf8" })
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => /\.[cm]?tsx?$/.test(file) && !file.endsWith(".d.ts"));
  return files.flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(src, file), "utf8"), true, true);
    return importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({
        file,
        specifier,
        target: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)),
      }))
      .filter(({ target }) => !target.startsWith(".."));
  });
}

/** `src/a/b.ts imports "../c/d.js"`. */
const describeImport = ({ file, specifier }: Import) => `src/${file} imports "${specifier}"`;

/** The cycles of the folder graph (its strongly connected components of more than one node), Tarjan's way. */
function cyclesOf(edges: Map<string, Map<string, Import[]>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

describe("imports between the top-level folders of src/", () => {
  const imports = relativeImports();
  const crossing = imports.filter(({ file, target }) => nodeOf(file) !== nodeOf(target));

  it("finds the imports it checks (static, dynamic, re-exports)", () => {
    expect(crossing).toContainEqual({
      file: "cli/serve/dev-command.ts",
      specifier: "../../dev-server/index.js",
      target: "dev-server/index.js",
    });
    expect(crossing.some(({ file }) => file === "index.ts")).toBe(true);
  });

  it("form no cycle", () => {
    const edges = new Map<string, Map<string, Import[]>>();
    for (const entry of crossing) {
      const from = edges.get(nodeOf(entry.file)) ?? new Map<string, Import[]>();
      edges.set(nodeOf(entry.file), from);
      from.set(nodeOf(entry.target), [...(from.get(nodeOf(entry.target)) ?? []), entry]);
    }
    // Each edge inside a cycle with its imports, the fewest first: the back-edge is usually the smallest.
    const reports = cyclesOf(edges).map((cycle) => {
      const inside = cycle
        .flatMap((from) => [...(edges.get(from) ?? [])].map(([to, found]) => ({ from, to, found })))
        .filter(({ to }) => cycle.includes(to))
        .sort((a, b) => a.found.length - b.found.length);
      const lines = inside.map(
        ({ from, to, found }) =>
          `  ${from} → ${to}\n${found.map((entry) => `    ${describeImport(entry)}`).join("\n")}`,
      );
      return `import cycle between ${cycle.join(", ")}:\n${lines.join("\n")}`;
    });
    expect(reports, reports.join("\n")).toEqual([]);
  });

  it("keep the library free of the dev tools (cli/, demo/, dev-server/)", () => {
    const offending = crossing
      .filter(({ file, target }) => !DEV_TOOLS.includes(nodeOf(file)) && DEV_TOOLS.includes(nodeOf(target)))
      .map(describeImport);
    expect(offending, offending.join("\n")).toEqual([]);
  });

  it("start a dev server only from the CLI's dev command and the demo", () => {
    const allowed = (file: string) =>
      DEV_SERVER_IMPORTERS.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));
    const offending = crossing
      .filter(({ file, target }) => nodeOf(target) === "dev-server/" && !allowed(file))
      .map(describeImport);
    expect(offending, offending.join("\n")).toEqual([]);
  });
});

describe("imports between the files of src/", () => {
  it("form no cycle, type-only imports included", () => {
    const edges = new Map<string, Map<string, Import[]>>();
    for (const entry of relativeImports()) {
      const to = entry.target.replace(/\.js$/, ".ts");
      const from = edges.get(entry.file) ?? new Map<string, Import[]>();
      edges.set(entry.file, from);
      from.set(to, [...(from.get(to) ?? []), entry]);
    }
    expect(edges.size).toBeGreaterThan(300);
    const cycles = cyclesOf(edges).map((cycle) => `import cycle between ${cycle.join(", ")}`);
    expect(cycles, cycles.join("\n")).toEqual([]);
  });
});
