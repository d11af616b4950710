#!/usr/bin/env node
// Runs the CLI from its TypeScript source, so a fresh clone needs no build step. The project's own tsconfig
// applies wherever the command is run from.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import(new URL("../src/cli/main.ts", import.meta.url).href);
