// The package build: compiles src/ to dist/ (tsconfig.build.json) from a clean folder, so no file of a deleted
// source is ever packed, and copies the files the compiled code reads at run time (the demo's sandbox seed).
// Run by `npm run build`, and by npm before `npm pack` and `npm publish` (prepack).
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Non-TypeScript files under src/ that the compiled code needs next to it, relative to src/. */
const ASSETS = ["demo/sandbox-seed"];

rmSync(path.join(root, "dist"), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
for (const asset of ASSETS)
  cpSync(path.join(root, "src", asset), path.join(root, "dist", asset), { recursive: true });
