import { cpSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The demo's example files, copied into the sandbox on first use. */
export const SANDBOX_SEED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "sandbox-seed");

/**
 * Creates the sandbox folder and copies the seed files that are missing from it. Files already there are left
 * alone, so a user can edit the data or add files and see the demo's answer change.
 * @returns the number of entries (files and folders) at the top of the sandbox.
 */
export function prepareSandbox(sandboxDir: string, seedDir: string = SANDBOX_SEED_DIR): number {
  mkdirSync(sandboxDir, { recursive: true });
  cpSync(seedDir, sandboxDir, { recursive: true, force: false, errorOnExist: false });
  return readdirSync(sandboxDir).length;
}
