import path from "node:path";

/**
 * The project-local folder where installed Temporal binaries live (`<project>/.cache/temporal`). It is
 * git-ignored and survives between runs, so the install cost is paid once per machine.
 */
export function defaultTemporalCacheDir(projectDir: string = process.cwd()): string {
  return path.join(projectDir, ".cache", "temporal");
}
