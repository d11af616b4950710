import path from "node:path";
import { TEMPORAL_CLI_SOURCES, formatCommand, type TemporalCliSource } from "./temporal-cli-sources.js";

/**
 * The message for "no Temporal binary": every way a user can get one, with commands that put the binary where
 * the finder looks, so following any line fixes the next run.
 */
export function describeWaysToGetTemporal(
  cacheDir: string,
  attempts: readonly string[] = [],
  sources: readonly TemporalCliSource[] = TEMPORAL_CLI_SOURCES,
): string {
  const installs = sources.map((s) => `  - ${formatCommand(s.command(path.join(cacheDir, s.dirName)))}`);
  const tried =
    attempts.length === 0 ? [] : ["", "Install attempts that failed:", ...attempts.map((a) => `  - ${a}`)];
  return [
    "No Temporal CLI binary found. Any one of these fixes it:",
    "  - set TEMPORAL_CLI=/path/to/temporal",
    "  - put `temporal` on PATH",
    "  - install it into the project cache with one of:",
    ...installs.map((line) => `  ${line}`),
    "  - or set TEMPORAL_ADDRESS=host:port (and TEMPORAL_NAMESPACE) to use an existing Temporal server",
    ...tried,
  ].join("\n");
}
