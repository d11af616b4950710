import path from "node:path";
import { TemporalCliNotFoundError } from "../dev-server-error.js";
import {
  findTemporalCli,
  type FindTemporalCliOptions,
  type TemporalCliLocation,
} from "./find-temporal-cli.js";
import { installTemporalCli } from "./install-temporal-cli.js";
import { defaultTemporalCacheDir } from "./temporal-cache-dir.js";
import { describeWaysToGetTemporal } from "./temporal-cli-help.js";

/** Options of {@link requireTemporalCli}. */
export interface RequireTemporalCliOptions extends FindTemporalCliOptions {
  /** Install into the cache when nothing is found (default true). */
  readonly install?: boolean;
  /** Progress lines from the installer. */
  readonly log?: (line: string) => void;
}

/**
 * A Temporal binary, found ({@link findTemporalCli}) or else installed into the project cache
 * ({@link installTemporalCli}). Throws {@link TemporalCliNotFoundError} with every way to get one otherwise.
 */
export async function requireTemporalCli(
  options: RequireTemporalCliOptions = {},
): Promise<TemporalCliLocation> {
  const found = findTemporalCli(options);
  if (found !== undefined) return found;
  const cacheDir = path.resolve(options.cacheDir ?? defaultTemporalCacheDir());
  if (options.install === false) {
    throw new TemporalCliNotFoundError(describeWaysToGetTemporal(cacheDir, [], options.sources));
  }
  return installTemporalCli({ cacheDir, sources: options.sources, log: options.log });
}
