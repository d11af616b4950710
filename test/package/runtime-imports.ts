import { readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

/**
 * One module specifier the compiled code loads, the source file that loads it, and whether only where it is called
 * (`import()`, or `require()` of a `createRequire`).
 */
export interface RuntimeImport {
  specifier: string;
  file: string;
  dynamic: boolean;
}

const builtins = new Set(builtinModules);

/** The TypeScript files under `folder` (declaration files excluded), sorted. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Every module the JavaScript compiled from the sources under `folder` loads: each file is transpiled with the
 * project's compiler options (so `import type` and type-only names are erased exactly as the build erases them)
 * and its static imports, re-exports and dynamic `import()`s are read from the output.
 */
export function runtimeImports(folder: string, tsconfigPath: string): RuntimeImport[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  return sourceFiles(folder).flatMap((file) => {
    // A file alone cannot tell NodeNext it is an ES module (package.json "type": "module"): it would emit
    // CommonJS, every import a require(). ESNext emits what the build does for this package.
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { ...config.options, module: ts.ModuleKind.ESNext },
      fileName: file,
    });
    const { importedFiles } = ts.preProcessFile(outputText, true, true);
    const dynamic = dynamicImports(outputText);
    return importedFiles.map(({ fileName }) => ({
      specifier: fileName,
      file,
      dynamic: dynamic.has(fileName),
    }));
  });
}

/** The specifiers JavaScript `code` loads only by `import("…")` or `require("…")`, never by an import or export statement. */
function dynamicImports(code: string): Set<string> {
  const source = ts.createSourceFile("out.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const dynamic = new Set<string>();
  const statically = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      statically.add((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isCallExpression(node) && isLoadCall(node.expression)) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) dynamic.add(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return new Set([...dynamic].filter((specifier) => !statically.has(specifier)));
}

/** Whether a call's callee loads a module: `import(…)`, or a `require(…)` (as `createRequire` makes). */
function isLoadCall(callee: ts.Expression): boolean {
  return (
    callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")
  );
}

/**
 * The npm package a specifier names (`@scope/name` or `name`), or undefined for a relative path or a Node
 * built-in.
 */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtins.has(name) ? undefined : name;
}

/**
 * The packages the compiled code under `folder` loads, each with the first file that loads it; with `statically`,
 * only those some file loads by an import or export statement (not only by `import()`).
 */
export function runtimePackages(
  folder: string,
  tsconfigPath: string,
  statically = false,
): Map<string, string> {
  const packages = new Map<string, string>();
  for (const { specifier, file, dynamic } of runtimeImports(folder, tsconfigPath)) {
    const name = packageOf(specifier);
    if (name && !packages.has(name) && !(statically && dynamic)) packages.set(name, file);
  }
  return packages;
}

/**
 * The packages the compiled code of `entry` (a source file) loads when it is imported: those its import and export
 * statements name, and theirs in turn (`import()` and `require()` are not followed), read from `imports`
 * ({@link runtimeImports} of the folder it is in). Each package with the chain of source files, from `entry`, that
 * loads it.
 */
export function staticPackagesOf(entry: string, imports: readonly RuntimeImport[]): Map<string, string[]> {
  const byFile = new Map<string, RuntimeImport[]>();
  for (const found of imports) byFile.set(found.file, [...(byFile.get(found.file) ?? []), found]);
  const packages = new Map<string, string[]>();
  const seen = new Set<string>([entry]);
  const queue: string[][] = [[entry]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = chain.at(-1)!;
    for (const { specifier, dynamic } of byFile.get(file) ?? []) {
      if (dynamic) continue;
      const name = packageOf(specifier);
      if (name) {
        if (!packages.has(name)) packages.set(name, chain);
      } else if (specifier.startsWith(".")) {
        const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
        if (!seen.has(target)) {
          seen.add(target);
          queue.push([...chain, target]);
        }
      }
    }
  }
  return packages;
}
