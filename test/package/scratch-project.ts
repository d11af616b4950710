import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const consumerFiles = fileURLToPath(new URL("./consumer", import.meta.url));

/** A project in a temporary folder with the packed package installed, as a user's would be. */
export interface ScratchProject {
  /** The project folder (its package.json, node_modules and the consumer scripts). */
  dir: string;
  /** The tarball `npm pack` made. */
  tarball: string;
  /** Deletes the tarball and the project. */
  remove(): void;
}

/** Runs `npm args` in `cwd` and returns its output; fails with npm's output when it fails. */
export async function npm(args: string[], cwd: string, timeout = 300_000): Promise<string> {
  try {
    const { stdout } = await run("npm", args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/**
 * Packs this repository (`npm pack`, which builds it first: prepack) into a temporary folder, creates a project
 * next to the tarball, and installs the tarball there with `zod` (the consumer scripts define tools with it),
 * preferring npm's cache. The consumer scripts of test/package/consumer are copied into the project.
 */
export async function packAndInstall(): Promise<ScratchProject> {
  const base = mkdtempSync(path.join(tmpdir(), "lite-agent-package-"));
  await npm(["pack", "--pack-destination", base, "--silent"], root);
  const tarball = readdirSync(base).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack left no tarball in ${base}`);
  const dir = path.join(base, "project");
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "scratch-consumer", private: true, type: "module" }, null, 2),
  );
  const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
  await npm([...install, path.join(base, tarball), "zod@^4"], dir);
  cpSync(consumerFiles, dir, { recursive: true });
  return {
    dir,
    tarball: path.join(base, tarball),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
