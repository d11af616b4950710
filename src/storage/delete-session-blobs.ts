import type { ExternalStorage } from "@temporalio/common";
import type { SessionBlobDriver } from "./session-blob-driver.js";
import { createExternalStorage } from "./payload-storage.js";
import { storageConfigFromEnv } from "./storage-config.js";

/** What {@link deleteSessionBlobs} deleted, per driver. */
export interface DeletedSessionBlobs {
  sessionId: string;
  deleted: { driver: string; location: string; count: number }[];
}

/** Options of {@link deleteSessionBlobs}. */
export interface DeleteSessionBlobsOptions {
  /** Default `TEMPORAL_NAMESPACE`, else `default`. */
  namespace?: string;
  /** The storage to clean; default the environment's ({@link storageConfigFromEnv}). */
  storage?: ExternalStorage;
}

function isSessionBlobDriver(driver: unknown): driver is SessionBlobDriver {
  return typeof (driver as SessionBlobDriver).deleteSessionBlobs === "function";
}

/**
 * Deletes every large payload stored for a session (all its runs share the workflow id). Only once it is closed and
 * its history no longer needed: a history without its payloads cannot be replayed, exported or shown in full, and a
 * running session fails its next workflow task.
 */
export async function deleteSessionBlobs(
  sessionId: string,
  options: DeleteSessionBlobsOptions = {},
): Promise<DeletedSessionBlobs> {
  const namespace = options.namespace ?? process.env.TEMPORAL_NAMESPACE ?? "default";
  const storage = options.storage ?? createExternalStorage(storageConfigFromEnv());
  const deleted: DeletedSessionBlobs["deleted"] = [];
  for (const driver of storage?.drivers ?? []) {
    if (!isSessionBlobDriver(driver)) continue;
    const count = await driver.deleteSessionBlobs(namespace, sessionId);
    deleted.push({ driver: driver.name, location: driver.location, count });
  }
  return { sessionId, deleted };
}
