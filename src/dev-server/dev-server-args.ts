import type { SearchAttributeSpec } from "./default-search-attributes.js";
import type { TemporalCliKind } from "./cli-binary/temporal-cli-sources.js";

/** Everything the server command line depends on. */
export interface DevServerArgsInput {
  readonly kind: TemporalCliKind;
  readonly ip: string;
  readonly port: number;
  /** `undefined` runs without the Web UI (`--headless`). */
  readonly uiPort: number | undefined;
  /** The Web UI's remote codec endpoint (`--ui-codec-endpoint`), when it has one. */
  readonly uiCodecEndpoint?: string | undefined;
  readonly dbFile: string | undefined;
  readonly namespace: string;
  readonly searchAttributes: SearchAttributeSpec;
  readonly logLevel: "debug" | "info" | "warn" | "error";
  /** Optional flags this binary's `start-dev --help` lists; unknown flags make older CLIs exit at once. */
  readonly supportedFlags: ReadonlySet<string>;
}

/**
 * Dynamic config for the embedded server. The dev server reads its task queue of new workflow tasks at most 20
 * times a second on its one shard, so every workflow task could wait up to 50 ms; agents run many short tasks.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, string>> = {
  "history.transferProcessorMaxPollRPS": "1000",
};

/** The argument list for `temporal server start-dev` (or the test server, which takes only a port). */
export function devServerArgs(input: DevServerArgsInput): string[] {
  if (input.kind === "test-server") return [String(input.port)];
  const args = ["server", "start-dev", "--ip", input.ip, "--port", String(input.port)];
  if (input.uiPort === undefined) args.push("--headless");
  else args.push("--ui-port", String(input.uiPort));
  // The UI otherwise fetches a newsfeed from the internet on every page load.
  if (input.uiPort !== undefined && input.supportedFlags.has("--ui-disable-news-fetch")) {
    args.push("--ui-disable-news-fetch");
  }
  if (input.uiPort !== undefined && input.uiCodecEndpoint !== undefined)
    args.push("--ui-codec-endpoint", input.uiCodecEndpoint);
  if (input.dbFile !== undefined) args.push("--db-filename", input.dbFile);
  // "default" always exists; passing it again is harmless but noisy in the server's log.
  if (input.namespace !== "default") args.push("--namespace", input.namespace);
  for (const [name, kind] of Object.entries(input.searchAttributes))
    args.push("--search-attribute", `${name}=${kind}`);
  if (input.supportedFlags.has("--dynamic-config-value")) {
    for (const [key, value] of Object.entries(DEV_SERVER_DYNAMIC_CONFIG))
      args.push("--dynamic-config-value", `${key}=${value}`);
  }
  args.push("--log-level", input.logLevel);
  return args;
}
