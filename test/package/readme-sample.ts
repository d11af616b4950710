import { readFileSync } from "node:fs";
import ts from "typescript";

/** The first `ts` code block under the README heading `heading`, as written. */
export function readmeCodeBlock(readme: string, heading: string): string {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!section.startsWith("\n## ") || !block)
    throw new Error(`README: no ts code block under "## ${heading}"`);
  return block[1]!;
}

/** The README's "Use it" sample compiled to an ES module (types erased, nothing else changed). */
export function readmeSampleModule(readmePath: string): string {
  const source = readmeCodeBlock(readFileSync(readmePath, "utf8"), "Use it");
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** Every `ts` code block of a guide (`docs/guides/<topic>.md`), in order, each compiled to an ES module (types erased). */
export function guideModules(guidePath: string): string[] {
  const blocks = [...readFileSync(guidePath, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1]!,
  );
  if (blocks.length === 0) throw new Error(`${guidePath}: no ts code block`);
  return blocks.map(
    (source) =>
      ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
  );
}
