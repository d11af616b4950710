import { readFileSync } from "node:fs";

/**
 * The version in the package's package.json, read when asked: it is two folders up from this module both in the
 * sources (src/cli/) and in the compiled package (dist/cli/).
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
