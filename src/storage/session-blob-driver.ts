import type { StorageDriver } from "@temporalio/common";
import type { BlobKey } from "./blob-key.js";

/** A storage driver that also lists and deletes the payloads stored for one session (workflow id). */
export interface SessionBlobDriver extends StorageDriver {
  /** Where the blobs are, for operators (a folder, `s3://bucket/prefix`). */
  readonly location: string;
  /** Keys of every payload stored for the session (all its runs). */
  listSessionBlobs(namespace: string, sessionId: string): Promise<BlobKey[]>;
  /** Deletes every payload stored for the session; returns how many were deleted. */
  deleteSessionBlobs(namespace: string, sessionId: string): Promise<number>;
}
