import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { bundleWorkflowCode, WorkflowBundle } from "@temporalio/worker";
import { temporalWorker } from "../runtime/temporal-worker.js";

const here = dirname(fileURLToPath(import.meta.url));
const sourceRoot = dirname(here);
/** The folders whose code ends up in the workflow bundle. */
const BUNDLED_FOLDERS = ["workflows", "kernel", "contract", "plan", "wire"];

/**
 * What the bundle is made of besides its sources, in the cache key: a bundle cached before a change to how it is made
 * (here, since which modules are preloaded) is not reused.
 */
const BUNDLE_LAYOUT = "preload-1;update-admission-1";

/** A module of the workflow folder: the TypeScript source when running from source, else the compiled `dist/`. */
function workflowModule(name: string): string {
  const candidates = [
    join(sourceRoot, "workflows", `${name}.ts`),
    join(sourceRoot, "workflows", `${name}.js`),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`workflow module not found (looked for ${candidates.join(", ")})`);
  return found;
}

/** The entry of the workflow bundle. */
export function workflowsPath(): string {
  return workflowModule("index");
}

/**
 * The workflow's payload converter: an undecodable signal, update or query argument becomes a record the handler
 * refuses, instead of an exception that fails the workflow task (`src/workflows/admission/lenient-payload-converter.ts`).
 */
export function payloadConverterPath(): string {
  return workflowModule("admission/lenient-payload-converter");
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * A digest of every file the bundle is made of, so a cached bundle is reused only while the code is the same: the
 * workflow folders, and for each middleware module the files of its folder (what such a module usually imports).
 */
function sourceDigest(modules: readonly string[]): string {
  const hash = createHash("sha256").update(`target:${SOURCE_TARGET};layout:${BUNDLE_LAYOUT}`);
  for (const folder of BUNDLED_FOLDERS) {
    for (const file of filesUnder(join(sourceRoot, folder))) hash.update(file).update(readFileSync(file));
  }
  for (const module of modules) {
    hash.update(module);
    for (const file of filesIn(dirname(module))) hash.update(file).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The code files directly in a folder. */
function filesIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mts|mjs|cts|cjs)$/.test(entry.name))
    .map((entry) => join(folder, entry.name))
    .sort();
}

/** A module given as a `file:` URL (`import.meta.url`) or a path, as a path that must exist. */
function modulePath(module: string): string {
  const path = module.startsWith("file:") ? fileURLToPath(module) : module;
  if (!existsSync(path)) throw new Error(`middleware module not found: ${path}`);
  return path;
}

/**
 * The modules loaded once per worker thread and shared by its sessions (the workflow entry and middleware modules),
 * sparing the SDK's per-workflow reload and its memory per cached session (docs/decisions/0014). They must keep no
 * per-session module state (linted in workflow folders) and call no workflow API while loading; exports are frozen.
 */
function preloadedModules(middlewareModules: readonly string[]): string[] {
  return [workflowsPath(), ...middlewareModules];
}

/** The SDK's hook to change the bundler's webpack configuration. */
type WebpackConfigHook = NonNullable<Parameters<typeof bundleWorkflowCode>[0]["webpackConfigHook"]>;

/**
 * The language level of TypeScript sources in the bundle: tsconfig's `target`, so a source bundle runs the same code
 * as `dist/`. The SDK's ES2017 default rewrites async generators and `for await` into several promises per step, and
 * the SDK captures a stack trace for every workflow promise (docs/decisions/0014).
 */
export const SOURCE_TARGET = "es2022";

/**
 * A `webpackConfigHook` that compiles the bundle's TypeScript sources (the SDK's swc-loader rule) to `target`.
 * @example bundleWorkflowCode({ workflowsPath, webpackConfigHook: compileSourcesFor("es2022") })
 */
export function compileSourcesFor(target: string): WebpackConfigHook {
  return (config) => {
    for (const rule of config.module?.rules ?? []) {
      if (!rule || typeof rule !== "object" || !("use" in rule)) continue;
      const use = rule.use as { loader?: string; options?: { jsc?: { target?: string } } } | undefined;
      if (use?.loader?.includes("swc-loader") && use.options?.jsc) use.options.jsc.target = target;
    }
    return config;
  };
}

/** Options of {@link loadWorkflowBundle}. */
export interface WorkflowBundleOptions {
  /** Where bundles are cached; default `.cache/workflow-bundle` of the project. */
  cacheDir?: string;
  /**
   * Workflow-safe modules to bundle too (`file:` URLs or paths): those of the agents' `defineMiddleware`
   * middleware, which register their factories when the workflow code loads.
   */
  modules?: readonly string[];
  /**
   * Include Temporal's OpenTelemetry workflow interceptors (see src/workflows/admission/tracing-interceptors.ts), exported
   * through the worker's `exporter` sink. They add no command and keep command order, so sessions replay alike.
   */
  tracing?: boolean;
}

/** The workflow interceptors every bundle loads: an update is accepted only into a workflow task of its own. */
export function updateAdmissionPath(): string {
  return workflowModule("admission/update-admission-interceptors");
}

/** The workflow interceptors of the tracing bundle: Temporal's OpenTelemetry ones, less update spans. */
export function tracingInterceptorsPath(): string {
  return workflowModule("admission/tracing-interceptors");
}

/**
 * The workflow bundle, built once per code version and cached on disk (bundling takes seconds) in the package's
 * `.cache/workflow-bundle`: the project root from source, `node_modules/lite-agent-temporal` (bundled from `dist/`)
 * when installed. A cache that cannot be written only costs the bundling time at each start.
 */
export async function loadWorkflowBundle(options: WorkflowBundleOptions = {}): Promise<WorkflowBundle> {
  const cacheDir = options.cacheDir ?? join(sourceRoot, "..", ".cache", "workflow-bundle");
  const modules = [...new Set((options.modules ?? []).map(modulePath))].sort();
  const file = join(cacheDir, `bundle-${sourceDigest(modules)}${options.tracing ? "-otel" : ""}.js`);
  if (existsSync(file)) return { code: readFileSync(file, "utf8") };
  const bundle = await temporalWorker().bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    payloadConverterPath: payloadConverterPath(),
    // Loaded when the workflow code starts (Temporal's hook for interceptor modules; the middleware modules export
    // no interceptors, the update admission and tracing modules do).
    workflowInterceptorModules: [
      updateAdmissionPath(),
      ...(options.tracing ? [tracingInterceptorsPath()] : []),
      ...modules,
    ],
    // The tracing module is not preloaded: Temporal's OpenTelemetry interceptors are made per workflow.
    preloadModules: preloadedModules(modules),
    logger: quietLogger,
    webpackConfigHook: compileSourcesFor(SOURCE_TARGET),
  });
  writeCachedBundle(cacheDir, file, bundle.code);
  return { code: bundle.code };
}

/** Writes a bundle into the cache (atomically, as workers may start together); a failed write is only logged. */
function writeCachedBundle(cacheDir: string, file: string, code: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  } catch (error) {
    console.warn(`workflow bundle not cached in ${cacheDir}: ${(error as Error).message}`);
  }
}

const ignore = () => undefined;
/** A bundler logger that shows only warnings and errors. */
export const quietLogger = {
  trace: ignore,
  debug: ignore,
  info: ignore,
  warn: console.warn,
  error: console.error,
  log: ignore,
};
