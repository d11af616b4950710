import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { packageOf, runtimePackages } from "./runtime-imports.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe("the package's runtime dependencies", () => {
  const loaded = runtimePackages(`${root}src`, `${root}tsconfig.build.json`);

  it("are exactly the packages the compiled src/ loads (tests' and tools' packages are dev dependencies)", () => {
    const declared = Object.keys(manifest.dependencies).sort();
    const used = [...loaded.keys()].sort();
    const unused = declared.filter((name) => !loaded.has(name));
    const undeclared = used
      .filter((name) => !(name in manifest.dependencies))
      .map((name) => `${name} (loaded by ${loaded.get(name)!.slice(root.length)})`);
    expect({ unused, undeclared }).toEqual({ unused: [], undeclared: [] });
    expect(used).toEqual(declared);
  });

  it("leave tsx and @temporalio/testing to development", () => {
    expect(manifest.devDependencies).toHaveProperty("tsx");
    expect(manifest.devDependencies).toHaveProperty("@temporalio/testing");
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
          "export type T = Stats | Kept;",
          "export const x = [readFileSync, join];",
        ].join("\n"),
      );
      const found = [...runtimePackages(folder, `${root}tsconfig.build.json`).keys()].sort();
      // `import { type Kept }` still loads its module under verbatimModuleSyntax, so it counts.
      expect(found).toEqual(["@scope/lazy", "dequal", "inline-type-package"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(packageOf("@temporalio/workflow/lib/x.js")).toBe("@temporalio/workflow");
  });
});
