/**
 * A stored payload that a claim refers to is not there (deleted, expired by a lifecycle rule, or the worker and
 * the client use different storage). The message names the driver, the key and where it looked.
 */
export class PayloadBlobMissingError extends Error {
  override readonly name = "PayloadBlobMissingError";

  constructor(
    readonly driver: string,
    readonly key: string,
    readonly location: string,
  ) {
    super(
      `stored payload '${key}' (storage driver '${driver}') is missing: nothing at ${location}. ` +
        "Was it deleted, or do this process and the one that stored it use different storage settings " +
        "(LITE_AGENT_STORAGE, LITE_AGENT_STORAGE_DIR, LITE_AGENT_S3_*)?",
    );
  }
}
