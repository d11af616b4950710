import { loadClientConnectConfig } from "@temporalio/envconfig";
import type { GlobalOptions } from "./options/global-options.js";

/**
 * The address a command connects to and where it came from, for an error that says where the server was looked for:
 * `--address`, `TEMPORAL_ADDRESS`, a profile of Temporal's config file (`TEMPORAL_CONFIG_FILE`, `TEMPORAL_PROFILE`).
 */
export function connectionTarget(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (globals.address)
    return `${globals.address}${globals.addressSource === "env" ? " (TEMPORAL_ADDRESS)" : ""}`;
  let address: string | undefined;
  try {
    address = loadClientConnectConfig().connectionOptions.address;
  } catch {
    // A config file that cannot be read fails the connection too, with its own reason.
  }
  if (!address) return "127.0.0.1:7233 (the default)";
  const profile = env.TEMPORAL_PROFILE?.trim() || "default";
  const file = env.TEMPORAL_CONFIG_FILE?.trim() || "Temporal's config file";
  return `${address} (profile '${profile}' of ${file})`;
}
