import { fileURLToPath } from "node:url";
import { parseWorkflowCode } from "@temporalio/worker/lib/worker.js";
import { ReusableVMWorkflowCreator } from "@temporalio/worker/lib/workflow/reusable-vm.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";

// The worker loads the bundle's modules once per thread and shares them between sessions; the SDK then freezes
// everything their exports reach through objects (src/worker/workflow-bundle.ts). Two kinds of value break when
// frozen: an expression with the `g` or `y` flag (`replace` and `exec` set its `lastIndex`), and a zod schema (it
// adds members to itself when first used). This loads the real bundle in the SDK's own reusable context and looks
// for either among what the shared modules export.

const middleware = fileURLToPath(new URL("../e2e/fixtures/middleware/audit-middleware.ts", import.meta.url));

type ModuleCache = Record<string, { exports: unknown } | undefined>;

/** Every value an export reaches through objects (as the SDK's freeze walks: functions are frozen, not entered). */
function reachable(
  root: unknown,
  seen = new Set<object>(),
  found: [string, object][] = [],
  path = "",
): [string, object][] {
  if (root === null || (typeof root !== "object" && typeof root !== "function") || seen.has(root))
    return found;
  seen.add(root);
  found.push([path, root]);
  if (typeof root === "function") return found;
  for (const key of [...Object.getOwnPropertyNames(root), ...Object.getOwnPropertySymbols(root)]) {
    const descriptor = Object.getOwnPropertyDescriptor(root, key);
    if (descriptor && "value" in descriptor)
      reachable(descriptor.value, seen, found, `${path}.${String(key)}`);
  }
  return found;
}

describe("the workflow modules a worker thread shares between sessions", () => {
  let shared: Map<string, { exports: unknown }>;
  let creator: ReusableVMWorkflowCreator;

  beforeAll(async () => {
    const { code } = await loadWorkflowBundle({ modules: [middleware] });
    creator = await ReusableVMWorkflowCreator.create(parseWorkflowCode(code), 5_000, new Set(), undefined);
    // The context is the creator's (protected): the module cache the SDK routes webpack's `require` through.
    const { context } = creator as unknown as { context: { __webpack_module_cache__: ModuleCache } };
    const cache = context.__webpack_module_cache__;
    // Outside a workflow the cache answers only the shared modules.
    const ids = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"$/gm)].map((match) => match[1]!);
    shared = new Map(
      ids.flatMap((id) => {
        const record = cache[id];
        return record ? [[id, record] as const] : [];
      }),
    );
  }, 240_000);
  afterAll(async () => {
    await creator?.destroy();
  });

  it("are the whole bundle but the workflow-specific modules: the kernel, the session, their libraries, the middleware", () => {
    const ids = [...shared.keys()];
    expect(ids).toEqual(
      expect.arrayContaining([
        "./src/workflows/index.ts",
        "./src/workflows/session/agent-session.ts",
        "./src/kernel/loop/run-kernel.ts",
        "./node_modules/zod/v4/classic/schemas.js",
        "./node_modules/picomatch/lib/constants.js",
        "./test/e2e/fixtures/middleware/audit-middleware.ts",
      ]),
    );
  });

  it("export no frozen expression with the g or y flag, and no frozen zod schema", () => {
    const broken: string[] = [];
    for (const [id, record] of shared) {
      for (const [path, value] of reachable(record.exports)) {
        if (!Object.isFrozen(value)) continue;
        // The sandbox's RegExp is another realm's: recognised by its tag.
        const expression =
          Object.prototype.toString.call(value) === "[object RegExp]" ? (value as RegExp) : undefined;
        if (expression && (expression.global || expression.sticky)) broken.push(`${id}${path}`);
        else if (typeof value === "object" && Object.hasOwn(value, "_zod")) broken.push(`${id}${path}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
