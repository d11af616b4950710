import { startDevServer, type StartDevServerOptions } from "../dev-server.js";

/** A Temporal server to talk to, started here or configured from outside. */
export interface TemporalEndpoint {
  readonly address: string;
  readonly namespace: string;
  /** Web UI URL when this process started the server with a UI. */
  readonly uiUrl: string | undefined;
  /** True when this call started a dev server (and `stop` stops it). */
  readonly started: boolean;
  /** Stops the server this call started; does nothing for an external server. */
  stop(): Promise<void>;
}

/** Options of {@link ensureTemporal}: the dev server's options, plus where to read the environment. */
export interface EnsureTemporalOptions extends StartDevServerOptions {
  /** Environment to read `TEMPORAL_ADDRESS`/`TEMPORAL_NAMESPACE` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The Temporal server to use: the one `TEMPORAL_ADDRESS` names (namespace from `TEMPORAL_NAMESPACE`, else
 * "default"), or else a dev server started for this process.
 */
export async function ensureTemporal(options: EnsureTemporalOptions = {}): Promise<TemporalEndpoint> {
  const env = options.env ?? process.env;
  const external = env.TEMPORAL_ADDRESS;
  if (external !== undefined && external !== "") {
    const namespace = env.TEMPORAL_NAMESPACE || (options.namespace ?? "default");
    options.log?.(`Using the Temporal server at ${external} (TEMPORAL_ADDRESS), namespace ${namespace}`);
    return { address: external, namespace, uiUrl: undefined, started: false, stop: async () => undefined };
  }
  const server = await startDevServer({ ...options, cli: { env, ...options.cli } });
  return {
    address: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl,
    started: true,
    stop: server.stop,
  };
}
