import { Connection } from "@temporalio/client";
import { encodeSearchAttributeIndexedValueType } from "@temporalio/common/lib/search-attributes.js";
import { DEFAULT_SEARCH_ATTRIBUTES, type SearchAttributeSpec } from "./default-search-attributes.js";
import { devServerArgs } from "./dev-server-args.js";
import type { TemporalCliLocation } from "./cli-binary/find-temporal-cli.js";
import { findFreePort } from "./free-port.js";
import { hostPort } from "./host-port.js";
import { probeStartDevFlags } from "./cli-binary/probe-start-dev-flags.js";
import { requireTemporalCli, type RequireTemporalCliOptions } from "./cli-binary/require-temporal-cli.js";
import { spawnServerProcess, type ServerProcess } from "./server-process.js";
import { waitForServer } from "./wait-for-server.js";

/** Options of {@link startDevServer}. */
export interface StartDevServerOptions {
  /** SQLite file that keeps state across restarts; in memory when omitted. */
  readonly dbFile?: string;
  /** gRPC port; a free one when omitted. */
  readonly port?: number;
  /** Web UI port; a free one when omitted. */
  readonly uiPort?: number;
  /** Run without the Web UI. */
  readonly headless?: boolean;
  /**
   * The remote codec server the Web UI decodes payloads with (`--ui-codec-endpoint`), such as
   * `lite-agent codec-server`'s URL; the browser calls it, so it must allow the UI's origin.
   */
  readonly uiCodecEndpoint?: string;
  /** Namespace to create and wait for (default "default"). */
  readonly namespace?: string;
  /** Custom search attributes to register (default {@link DEFAULT_SEARCH_ATTRIBUTES}). */
  readonly searchAttributes?: SearchAttributeSpec;
  /** Progress, install and server output lines. */
  readonly log?: (line: string) => void;
  /** Interface to bind (default 127.0.0.1: the dev server has no auth). */
  readonly ip?: string;
  /** How long to wait for the namespace to answer (default 60 s). */
  readonly readyTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace period on stop (default 10 s). */
  readonly stopGraceMs?: number;
  /** Server log level (default "warn"). */
  readonly logLevel?: "debug" | "info" | "warn" | "error";
  /** How to find or install the binary (env, cache dir, whether to install). */
  readonly cli?: RequireTemporalCliOptions;
}

/** A running local Temporal server. */
export interface DevServer {
  /** gRPC `host:port` for `Connection.connect` and workers. */
  readonly address: string;
  /** Web UI URL, `undefined` when headless or on the test server. */
  readonly uiUrl: string | undefined;
  readonly namespace: string;
  /** The process group id of the server (its watchdog's pid). */
  readonly pid: number;
  /** The binary that runs, and whether it is the full CLI or the UI-less test server. */
  readonly binary: TemporalCliLocation;
  /** Stops the server (SIGTERM, SIGKILL after the grace period); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

interface Launch {
  readonly server: ServerProcess;
  readonly port: number;
  readonly uiPort: number | undefined;
}

/** The options with every default filled in. */
interface Settings extends StartDevServerOptions {
  readonly ip: string;
  readonly namespace: string;
  readonly searchAttributes: SearchAttributeSpec;
  readonly readyTimeoutMs: number;
  readonly stopGraceMs: number;
  readonly logLevel: "debug" | "info" | "warn" | "error";
}

const MAX_PORT_ATTEMPTS = 3;

function withDefaults(options: StartDevServerOptions): Settings {
  return {
    ...options,
    ip: options.ip ?? "127.0.0.1",
    namespace: options.namespace ?? "default",
    searchAttributes: options.searchAttributes ?? DEFAULT_SEARCH_ATTRIBUTES,
    readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
    stopGraceMs: options.stopGraceMs ?? 10_000,
    logLevel: options.logLevel ?? "warn",
  };
}

async function launchOnce(binary: TemporalCliLocation, settings: Settings): Promise<Launch> {
  const port = settings.port ?? (await findFreePort(settings.ip));
  const withUi = binary.kind === "cli" && settings.headless !== true;
  const uiPort = withUi ? (settings.uiPort ?? (await findFreePort(settings.ip, [port]))) : undefined;
  const args = devServerArgs({
    ...settings,
    kind: binary.kind,
    port,
    uiPort,
    dbFile: settings.dbFile,
    supportedFlags: binary.kind === "cli" ? await probeStartDevFlags(binary.path) : new Set(),
  });
  const log = settings.log;
  const onLine = log && ((line: string) => log(`[temporal] ${line}`));
  const server = spawnServerProcess({ file: binary.path, args, graceMs: settings.stopGraceMs, onLine });
  return { server, port, uiPort };
}

// Free ports are picked before the server binds them, so another process can win the race; only ports we
// picked ourselves are worth picking again.
async function launchUntilReady(binary: TemporalCliLocation, settings: Settings): Promise<Launch> {
  for (let attempt = 1; ; attempt++) {
    const launch = await launchOnce(binary, settings);
    try {
      const { ip: host, namespace, readyTimeoutMs: timeoutMs } = settings;
      await waitForServer({ host, port: launch.port, namespace, timeoutMs, server: launch.server });
      return launch;
    } catch (error) {
      await launch.server.stop(settings.stopGraceMs);
      const pickedPorts = settings.port === undefined && settings.uiPort === undefined;
      const portTaken = /address already in use/i.test(launch.server.outputExcerpt());
      if (!pickedPorts || !portTaken || attempt >= MAX_PORT_ATTEMPTS) throw error;
    }
  }
}

// The test server has no --search-attribute flag; register through the operator API instead, best effort.
async function registerSearchAttributes(address: string, settings: Settings): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const searchAttributes = Object.fromEntries(
      Object.entries(settings.searchAttributes).flatMap(([name, kind]) => {
        const upper = kind === "KeywordList" ? "KEYWORD_LIST" : (kind.toUpperCase() as "KEYWORD");
        const encoded = encodeSearchAttributeIndexedValueType(upper);
        return encoded === undefined ? [] : [[name, encoded] as const];
      }),
    );
    await connection.operatorService.addSearchAttributes({ namespace: settings.namespace, searchAttributes });
  } catch (error) {
    settings.log?.(`could not register search attributes on the test server: ${String(error)}`);
  } finally {
    await connection.close();
  }
}

/**
 * Starts `temporal server start-dev` on free local ports (finding or installing the binary first), waits until
 * the namespace answers, and returns its address. The server runs in its own process group under a watchdog,
 * so it dies with this process even on SIGKILL.
 */
export async function startDevServer(options: StartDevServerOptions = {}): Promise<DevServer> {
  const settings = withDefaults(options);
  const binary = await requireTemporalCli({ log: settings.log, ...settings.cli });
  if (binary.kind === "test-server" && settings.dbFile !== undefined) {
    settings.log?.(`${binary.path} is the test server: it keeps no state in ${settings.dbFile}`);
  }
  const { server, port, uiPort } = await launchUntilReady(binary, settings);
  const address = hostPort(settings.ip, port);
  if (binary.kind === "test-server") await registerSearchAttributes(address, settings);
  const uiUrl = uiPort === undefined ? undefined : `http://${hostPort(settings.ip, uiPort)}`;
  settings.log?.(`Temporal dev server ready at ${address}${uiUrl ? `, UI ${uiUrl}` : ""} (${binary.path})`);
  return {
    address,
    uiUrl,
    namespace: settings.namespace,
    pid: server.pid,
    binary,
    stop: () => server.stop(settings.stopGraceMs),
  };
}
