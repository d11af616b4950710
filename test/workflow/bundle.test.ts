import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorkflowCode } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { loadWorkflowBundle, workflowsPath } from "../../src/worker/workflow-bundle.js";

/** The modules a bundle's `preloadModules` loads (webpack ids: paths from the project's root). */
function preloadedIn(code: string): string[] {
  const start = code.indexOf("exports.preloadModules = function preloadModules() {");
  const body = code.slice(start, code.indexOf("\n}", start));
  return [...body.matchAll(/__webpack_require__\([^)]*"([^"]+)"\)/g)].map((match) => match[1]!);
}

describe("the workflow bundle", () => {
  it("builds in the Temporal sandbox bundler, which refuses Node built-ins and activity/client code", async () => {
    const bundle = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
    expect(bundle.code.length).toBeGreaterThan(10_000);
    // Nothing with I/O may reach the bundle: providers, activities, the client, stream transports.
    for (const forbidden of [
      "openai-provider",
      "src/activities/",
      "src/client",
      "ioredis",
      "src/stream/",
      "src/worker/",
      "src/runtime/",
      "src/dev-server/",
    ]) {
      expect(bundle.code.includes(forbidden), forbidden).toBe(false);
    }
    expect(bundle.code).toContain("agentSession");
  }, 120_000);

  it("takes in a defineMiddleware module, and refuses one that reaches for Node built-ins", async () => {
    const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };
    const middleware = fileURLToPath(
      new URL("../e2e/fixtures/middleware/audit-middleware.ts", import.meta.url),
    );
    const bundle = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      workflowInterceptorModules: [middleware],
      logger,
    });
    expect(bundle.code).toContain("test/system-note");
    const forbidden = fileURLToPath(
      new URL("../fixtures/deterministic/forbidden-imports.ts", import.meta.url),
    );
    await expect(
      bundleWorkflowCode({ workflowsPath: workflowsPath(), workflowInterceptorModules: [forbidden], logger }),
    ).rejects.toThrow();
  }, 240_000);

  it("preloads the workflow entry and the middleware modules, which a thread's sessions share, not the tracing module", async () => {
    const middleware = fileURLToPath(
      new URL("../e2e/fixtures/middleware/audit-middleware.ts", import.meta.url),
    );
    const cacheDir = mkdtempSync(join(tmpdir(), "bundle-preload-"));
    try {
      const { code } = await loadWorkflowBundle({ cacheDir, modules: [middleware], tracing: true });
      expect(code).toContain("tracing-interceptors.ts");
      expect(preloadedIn(code)).toEqual([
        "./src/workflows/index.ts",
        "./test/e2e/fixtures/middleware/audit-middleware.ts",
      ]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 240_000);
});
