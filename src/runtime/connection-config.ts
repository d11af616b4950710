import { loadClientConnectConfig } from "@temporalio/envconfig";
import type { NativeConnectionOptions } from "@temporalio/worker";

/** Where to reach Temporal. */
export interface TemporalConnectionConfig {
  address: string;
  namespace: string;
  /** Everything Temporal's own environment configuration gives (TLS, API key, headers). */
  connectionOptions: NativeConnectionOptions;
}

/** The default task queue of agent workers. */
export const DEFAULT_TASK_QUEUE = "lite-agent";

/**
 * Reads the connection settings the way Temporal's CLI and SDKs do: `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`,
 * `TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, and the profile file `TEMPORAL_CONFIG_FILE` (default profile).
 * Explicit overrides win. Defaults to a local server on 127.0.0.1:7233, namespace `default`.
 */
export function loadConnectionConfig(
  overrides: { address?: string; namespace?: string } = {},
): TemporalConnectionConfig {
  const loaded = loadClientConnectConfig();
  const connectionOptions: NativeConnectionOptions = { ...loaded.connectionOptions };
  const address = overrides.address ?? connectionOptions.address ?? "127.0.0.1:7233";
  connectionOptions.address = address;
  return { address, namespace: overrides.namespace ?? loaded.namespace ?? "default", connectionOptions };
}
