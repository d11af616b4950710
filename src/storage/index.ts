export { blobKey, sessionKeyPrefix, encodeKeySegment, type BlobKey } from "./blob-key.js";
export {
  deleteSessionBlobs,
  type DeletedSessionBlobs,
  type DeleteSessionBlobsOptions,
} from "./delete-session-blobs.js";
export { FilesystemStorageDriver, type FilesystemStorageDriverOptions } from "./filesystem-driver.js";
export { PayloadBlobMissingError } from "./payload-blob-missing-error.js";
export {
  createExternalStorage,
  createStorageDriver,
  resolveExternalStorage,
  withPayloadStorage,
  type PayloadStorageOption,
} from "./payload-storage.js";
export { S3StorageDriver, type S3StorageDriverOptions } from "./s3-driver.js";
export type { SessionBlobDriver } from "./session-blob-driver.js";
export {
  DEFAULT_PAYLOAD_THRESHOLD,
  defaultPayloadDir,
  storageConfigFromEnv,
  type PayloadStorageConfig,
} from "./storage-config.js";
export { readTranscriptSegment, storeTranscriptSegment, type TranscriptBlob } from "./transcript-blob.js";
