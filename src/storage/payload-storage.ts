import { ExternalStorage, type DataConverter } from "@temporalio/common";
import { installExternalStorageFastPath } from "./external-storage-fast-path.js";
import { FilesystemStorageDriver } from "./filesystem-driver.js";
import { S3StorageDriver } from "./s3-driver.js";
import type { SessionBlobDriver } from "./session-blob-driver.js";
import { storageConfigFromEnv, type PayloadStorageConfig } from "./storage-config.js";

/**
 * How a worker or client stores large payloads: an `ExternalStorage` of your own, `false` for none (payloads
 * inline, Temporal's 2 MB limit applies), or undefined for the environment's settings ({@link storageConfigFromEnv}:
 * the filesystem driver under `.cache/temporal/payloads` by default).
 */
export type PayloadStorageOption = ExternalStorage | false | undefined;

/** The driver a configuration names, or undefined for `off`. */
export function createStorageDriver(config: PayloadStorageConfig): SessionBlobDriver | undefined {
  switch (config.kind) {
    case "off":
      return undefined;
    case "fs":
      return new FilesystemStorageDriver({ dir: config.dir });
    case "s3":
      return new S3StorageDriver({
        bucket: config.bucket,
        prefix: config.prefix,
        clientConfig: {
          region: config.region,
          forcePathStyle: config.forcePathStyle,
          ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        },
      });
  }
}

/**
 * The SDK's `ExternalStorage` (claim check) for a configuration: payloads of at least `threshold` bytes are written
 * through the driver and replaced on the wire by a small reference; undefined for `off`.
 */
export function createExternalStorage(
  config: PayloadStorageConfig = storageConfigFromEnv(),
): ExternalStorage | undefined {
  const driver = createStorageDriver(config);
  if (!driver || config.kind === "off") return undefined;
  return new ExternalStorage({ drivers: [driver], payloadSizeThreshold: config.threshold });
}

/** Resolves a {@link PayloadStorageOption}: yours, none, or the environment's. */
export function resolveExternalStorage(option: PayloadStorageOption): ExternalStorage | undefined {
  if (option === false) return undefined;
  return option ?? createExternalStorage(storageConfigFromEnv());
}

/**
 * A data converter with external storage added (the rest of `base` kept). An `externalStorage` already in `base`
 * wins over the option, so a caller's own data converter is never overridden. Either way the SDK's storage runner
 * gets its fast path ({@link installExternalStorageFastPath}).
 */
export function withPayloadStorage(
  base: DataConverter | undefined,
  option: PayloadStorageOption,
): DataConverter | undefined {
  if (base?.externalStorage) {
    installExternalStorageFastPath();
    return base;
  }
  const externalStorage = resolveExternalStorage(option);
  if (!externalStorage) return base;
  installExternalStorageFastPath();
  return { ...base, externalStorage };
}
