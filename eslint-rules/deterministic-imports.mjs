// @ts-check
import { dirname, isAbsolute, relative, resolve } from "node:path";

/**
 * `deterministic-imports`: code that runs in the Temporal workflow sandbox (the kernel, the workflows, the plan
 * helpers they share) may import values by relative path only from the deterministic folders it is given. Every
 * other folder of this project is Node-bound, or may become so without notice: `src/stream` (ioredis), `src/storage`
 * (S3, node:fs), `src/providers` (openai), `src/activities`, `src/worker`, `src/runtime`, `src/client`, `src/cli`, `src/dev-server`, `src/demo`,
 * `src/checkpoint`, `src/testing`, and root files such as `node-ports.ts`, `agent.ts`, `worker.ts` or `client.ts`
 * (node:crypto and the Temporal client). `no-restricted-imports` only sees the specifier string, so it cannot tell
 * `../checkpoint/x.js` in `src/kernel/compaction` (the kernel's own folder) from the same string in `src/kernel`
 * (the Node-bound `src/checkpoint`): this rule resolves the path first.
 *
 * Only a top-level `import type` / `export type` is allowed across the boundary: it is erased. An import whose
 * specifiers are all inline types (`import { type A } from`) is not, under `verbatimModuleSyntax`: it compiles to
 * `import "…"`, which still loads the module and everything it imports.
 *
 * Options: `{ root, allowed }`: the folders (relative to `root`) whose modules deterministic code may load.
 */

/** True when `path` is `folder` or lies inside it. */
function inside(path, folder) {
  const rest = relative(folder, path);
  return rest === "" || (!rest.startsWith("..") && !isAbsolute(rest));
}

/** @type {import("eslint").Rule.RuleModule} */
export const deterministicImports = {
  meta: {
    type: "problem",
    docs: {
      description: "Workflow code loads modules by relative path only from the deterministic folders.",
    },
    schema: [
      {
        type: "object",
        properties: { root: { type: "string" }, allowed: { type: "array", items: { type: "string" } } },
        required: ["root", "allowed"],
        additionalProperties: false,
      },
    ],
    messages: {
      nodeBound:
        "'{{target}}' is outside the deterministic folders ({{allowed}}) and may reach Node built-ins or I/O: " +
        "workflow code may use it only through `import type`.",
    },
  },
  create(context) {
    const { root, allowed } = context.options[0];
    const folders = allowed.map((folder) => resolve(root, folder));
    /** Reports a relative specifier that resolves outside the allowed folders. */
    const check = (/** @type {any} */ source, /** @type {boolean} */ erased) => {
      if (erased || source?.type !== "Literal" || typeof source.value !== "string") return;
      if (!source.value.startsWith(".")) return; // packages: no-restricted-imports' job
      const target = resolve(dirname(context.filename), source.value);
      if (folders.some((folder) => inside(target, folder))) return;
      context.report({
        node: source,
        messageId: "nodeBound",
        data: { target: relative(root, target), allowed: allowed.join(", ") },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source, /** @type {any} */ (node).importKind === "type"),
      ExportNamedDeclaration: (node) => check(node.source, /** @type {any} */ (node).exportKind === "type"),
      ExportAllDeclaration: (node) => check(node.source, /** @type {any} */ (node).exportKind === "type"),
      ImportExpression: (node) => check(node.source, false),
    };
  },
};
