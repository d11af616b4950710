import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { packageOf, runtimeImports, runtimePackages, staticPackagesOf } from "./runtime-imports.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** The one module that loads an optional peer statically: bundled into the workflow code only with tracing on. */
const TRACING_BUNDLE_MODULE = "src/workflows/admission/tracing-interceptors.ts";
/** The one module that loads `@temporalio/worker` (by `require()` where it is used: temporalWorker()). */
const WORKER_LOADER_MODULE = "src/runtime/temporal-worker.ts";
/** The package's entries (package.json `exports`, and the CLI's): the source each is compiled from. */
const ENTRIES = {
  ".": "src/index.ts",
  "./client": "src/client.ts",
  "./storage": "src/storage/index.ts",
  "./worker": "src/worker.ts",
  "./workflow": "src/workflow.ts",
  "./testing": "src/testing.ts",
  "lite-agent (CLI)": "src/cli/main.ts",
};

describe("the package's runtime dependencies", () => {
  const loaded = runtimePackages(`${root}src`, `${root}tsconfig.build.json`);
  const imports = runtimeImports(`${root}src`, `${root}tsconfig.build.json`);

  it("with the optional peers, are exactly the packages the compiled src/ loads (tests' and tools' are dev)", () => {
    const runtime = { ...manifest.dependencies, ...manifest.peerDependencies };
    const declared = Object.keys(runtime).sort();
    const used = [...loaded.keys()].sort();
    const unused = declared.filter((name) => !loaded.has(name));
    const undeclared = used
      .filter((name) => !(name in runtime))
      .map((name) => `${name} (loaded by ${loaded.get(name)!.slice(root.length)})`);
    expect({ unused, undeclared }).toEqual({ unused: [], undeclared: [] });
    expect(used).toEqual(declared);
  });

  it("load the optional peers only by import(), where a feature is used (and the tracing workflow bundle)", () => {
    const statically = runtimePackages(`${root}src`, `${root}tsconfig.build.json`, true);
    const eager = [...statically]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (${file.slice(root.length)})`);
    expect(eager).toEqual([`@temporalio/interceptors-opentelemetry (${TRACING_BUNDLE_MODULE})`]);
    for (const name of Object.keys(manifest.peerDependencies))
      expect(manifest.devDependencies, `${name} is tested`).toHaveProperty(name);
  });

  it("are not needed to import any entry: no optional peer (@temporalio/worker included) on a static import chain", () => {
    const eager = Object.entries(ENTRIES).flatMap(([entry, file]) => {
      const packages = staticPackagesOf(`${root}${file}`, imports);
      return [...packages]
        .filter(([name]) => !(name in manifest.dependencies))
        .map(
          ([name, chain]) =>
            `${entry}: ${name} (${chain.map((step) => step.slice(root.length)).join(" -> ")})`,
        );
    });
    expect(eager).toEqual([]);
    // The main entry, ./client and ./storage: not even by a module that might load it later on its own.
    for (const entry of [".", "./client", "./storage"] as const) {
      const chain = staticPackagesOf(`${root}${ENTRIES[entry]}`, imports);
      expect(chain.has("@temporalio/worker"), entry).toBe(false);
    }
  });

  it("load @temporalio/worker in one module only, where it is used, and test with the pinned version", () => {
    const loaders = imports
      .filter(({ specifier }) => packageOf(specifier) === "@temporalio/worker")
      .map(({ file, dynamic }) => ({ file: file.slice(root.length), dynamic }));
    expect(loaders).toEqual([{ file: WORKER_LOADER_MODULE, dynamic: true }]);
    expect(manifest.dependencies).not.toHaveProperty("@temporalio/worker");
    expect(manifest.peerDependencies["@temporalio/worker"]).toBe(manifest.dependencies["@temporalio/client"]);
    expect(manifest.devDependencies["@temporalio/worker"]).toBe(manifest.dependencies["@temporalio/client"]);
  });

  it("leave tsx and @temporalio/testing to development", () => {
    expect(manifest.devDependencies).toHaveProperty("tsx");
    expect(manifest.devDependencies).toHaveProperty("@temporalio/testing");
    // @temporalio/testing brings the worker's native core too: never a runtime dependency, not even a peer.
    expect(manifest.dependencies).not.toHaveProperty("@temporalio/testing");
    expect(manifest.peerDependencies).not.toHaveProperty("@temporalio/testing");
    expect(loaded.has("tsx")).toBe(false);
  });

  it("are read as the build emits them: type-only imports erased, dynamic imports counted, built-ins not", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "runtime-imports-"));
    try {
      writeFileSync(
        path.join(folder, "sample.ts"),
        [
          'import type { Stats } from "erased-package";',
          'import { type Kept } from "inline-type-package";',
          'import { readFileSync } from "node:fs";',
          'import { join } from "path";',
          'export { dequal } from "dequal/lite";',
          'import "./sibling.js";',
          'export async function load(): Promise<unknown> { return import("@scope/lazy/sub"); }',
          'import { createRequire } from "node:module";',
          "const require = createRequire(import.meta.url);",
          'export function get(): unknown { return require("required-package"); }',
          "export type T = Stats | Kept;",
          "export const x = [readFileSync, join];",
        ].join("\n"),
      );
      const found = [...runtimePackages(folder, `${root}tsconfig.build.json`).keys()].sort();
      // `import { type Kept }` still loads its module under verbatimModuleSyntax, so it counts.
      expect(found).toEqual(["@scope/lazy", "dequal", "inline-type-package", "required-package"]);
      const eager = [...runtimePackages(folder, `${root}tsconfig.build.json`, true).keys()].sort();
      expect(eager).toEqual(["dequal", "inline-type-package"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(packageOf("@temporalio/workflow/lib/x.js")).toBe("@temporalio/workflow");
  });
});
