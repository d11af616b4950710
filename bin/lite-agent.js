#!/usr/bin/env node
// The `lite-agent` command. The installed package (and the worker image) runs the compiled JavaScript in dist/.
// In a source checkout (src/ next to this folder, with the dev dependency tsx installed) it runs the TypeScript
// sources through tsx instead, with the project's tsconfig, so working on the CLI needs no build step.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../src/cli/main.ts", import.meta.url);

/** tsx's loader API when this is a source checkout that has it installed, else undefined. */
async function sourceLoader() {
  if (!existsSync(source)) return undefined;
  try {
    return await import("tsx/esm/api");
  } catch {
    return undefined;
  }
}

const tsx = await sourceLoader();
if (tsx) {
  tsx.register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
  await import(source.href);
} else {
  await import(new URL("../dist/cli/main.js", import.meta.url).href);
}
