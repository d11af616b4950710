// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { builtinModules } from "node:module";
import { deterministicImports } from "./eslint-rules/deterministic-imports.mjs";

/** Values the deterministic code (kernel, workflows) may import; everything else must be `import type`. */
const workflowSafePackages = [
  "@temporalio/workflow",
  "@temporalio/workflow-streams/workflow",
  "@temporalio/common",
  "zod",
  // Pure JavaScript, no Node built-ins: the workflow bundle test builds them into the sandbox.
  "picomatch/posix.js",
  "picomatch/lib/constants.js",
  "@noble/hashes/sha2",
  "@noble/hashes/utils",
  "@noble/curves/ed25519",
  "dequal",
  // Temporal's OpenTelemetry workflow interceptors, made for the sandbox (only the tracing bundle loads them).
  "@temporalio/interceptors-opentelemetry/lib/workflow/index.js",
];

const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);

/** A declaration at a module's top level, exported or not. */
const MODULE_LEVEL = ":matches(Program, Program > ExportNamedDeclaration)";
const SHARED_MODULE_STATE =
  "Workflow modules are shared by every session of a worker thread: keep state in instances, not at module level " +
  "(a pure cache or a registry filled while modules load may, with a comment saying why).";

/**
 * The code that runs in the Temporal sandbox (DESIGN.md §4), and the only folders it may load modules from. The
 * fixtures folder holds test-only workflow code (test/replay/versioning.test.ts) and shows the rules at work
 * (test/lint/deterministic-imports.test.ts); its forbidden-imports.ts and module-state.ts break them on purpose, so
 * `eslint .` skips those files (the test lints them with `ignore: false`).
 */
const deterministicFolders = [
  "src/contract",
  "src/kernel",
  "src/workflows",
  "src/plan",
  "src/wire",
  "test/fixtures/deterministic",
  // A user's middleware module (defineMiddleware), bundled into the workflow code: the same rules hold.
  "test/e2e/fixtures/middleware",
];
/**
 * The package's workflow-safe entry (`lite-agent-temporal/workflow`), without extension: it keeps the same rules,
 * and workflow code may import it (as `.js`, the specifier the rule resolves).
 */
const deterministicEntries = ["src/workflow"];

/** Syntax the deterministic code may not use. */
const deterministicSyntax = [
  { selector: "NewExpression[callee.name='Date']", message: "Time comes through the ports (now())." },
  // The workflow bundle's modules are loaded once per worker thread and shared by all its sessions
  // (preloadedModules, src/worker/workflow-bundle.ts): state at module level would pass between sessions.
  {
    selector: `${MODULE_LEVEL} > VariableDeclaration[kind!='const']`,
    message: SHARED_MODULE_STATE,
  },
  {
    selector: `${MODULE_LEVEL} > VariableDeclaration > VariableDeclarator:not([id.typeAnnotation.typeAnnotation.typeName.name=/^Readonly/]) > NewExpression[callee.name=/^(Map|Set|WeakMap|WeakSet|Array)$/]`,
    message: SHARED_MODULE_STATE,
  },
];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".cache/**",
      "bin/**",
      "eslint.config.js",
      "test/fixtures/deterministic/forbidden-imports.ts",
      "test/fixtures/deterministic/module-state.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import-x/no-cycle": "error",
      eqeqeq: ["error", "smart"],
    },
  },
  {
    // Determinism boundary (DESIGN.md §4): the kernel and the workflow code run inside the Temporal sandbox.
    files: [
      ...deterministicFolders.map((folder) => `${folder}/**/*.ts`),
      ...deterministicEntries.map((entry) => `${entry}.ts`),
    ],
    plugins: { "lite-agent": { rules: { "deterministic-imports": deterministicImports } } },
    rules: {
      "lite-agent/deterministic-imports": [
        "error",
        {
          root: import.meta.dirname,
          allowed: [...deterministicFolders, ...deterministicEntries.map((entry) => `${entry}.js`)],
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: nodeBuiltins.map((name) => ({ name, message: "Node built-ins are not deterministic." })),
          patterns: [
            {
              regex: `^(?!(${workflowSafePackages.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})$)(?!\\.{1,2}/)`,
              allowTypeImports: true,
              message: "Deterministic code imports only workflow-safe packages as values; use `import type`.",
            },
            {
              group: ["**/activities/**", "**/providers/**", "**/config/**", "**/agent", "**/agent.js"],
              allowTypeImports: true,
              message: "Activities, providers and config hold I/O: import their types only.",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "Read configuration on the worker, not in deterministic code." },
        { name: "setTimeout", message: "Use the sleep port (a durable timer in workflows)." },
        { name: "setInterval", message: "Use the sleep port." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Time comes through the ports (now())." },
        { object: "Math", property: "random", message: "Randomness comes through the ports (random())." },
      ],
      "no-restricted-syntax": ["error", ...deterministicSyntax],
    },
  },
  {
    // The wire contract (src/contract) is what histories and other processes hold: names, shapes and constants.
    files: ["src/contract/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...deterministicSyntax,
        ...["FunctionDeclaration", "ClassDeclaration", "ArrowFunctionExpression", "FunctionExpression"].map(
          (selector) => ({
            selector,
            message: "The contract holds types and constants only: logic goes elsewhere.",
          }),
        ),
      ],
    },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: "readonly", console: "readonly" },
    },
  },
  {
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
