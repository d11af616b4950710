import path from "node:path";
import { describe, expect, it } from "vitest";
import { blobKey, encodeKeySegment, sessionKeyPrefix } from "../../src/storage/blob-key.js";
import { FilesystemStorageDriver } from "../../src/storage/filesystem-driver.js";
import { createExternalStorage, withPayloadStorage } from "../../src/storage/payload-storage.js";
import { S3StorageDriver } from "../../src/storage/s3-driver.js";
import { DEFAULT_PAYLOAD_THRESHOLD, storageConfigFromEnv } from "../../src/storage/storage-config.js";

describe("storage settings from the environment", () => {
  it("defaults to the filesystem driver under .cache/temporal/payloads with a 128 KiB threshold", () => {
    const config = storageConfigFromEnv({});
    expect(config).toEqual({
      kind: "fs",
      dir: path.join(process.cwd(), ".cache", "temporal", "payloads"),
      threshold: 128 * 1024,
    });
    const storage = createExternalStorage(config)!;
    expect(storage.payloadSizeThreshold).toBe(DEFAULT_PAYLOAD_THRESHOLD);
    expect(storage.drivers[0]).toBeInstanceOf(FilesystemStorageDriver);
  });

  it("reads the folder, the threshold, and S3's bucket, prefix, endpoint, region and path style", () => {
    expect(
      storageConfigFromEnv({ LITE_AGENT_STORAGE_DIR: "/srv/blobs", LITE_AGENT_STORAGE_THRESHOLD: "0" }),
    ).toEqual({ kind: "fs", dir: "/srv/blobs", threshold: 0 });
    const s3 = storageConfigFromEnv({
      LITE_AGENT_STORAGE: "s3",
      LITE_AGENT_S3_BUCKET: "payloads",
      LITE_AGENT_S3_PREFIX: "agents",
      LITE_AGENT_S3_ENDPOINT: "http://127.0.0.1:9000",
    });
    expect(s3).toEqual({
      kind: "s3",
      bucket: "payloads",
      prefix: "agents",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      forcePathStyle: true,
      threshold: 128 * 1024,
    });
    const driver = createExternalStorage(s3)!.drivers[0] as S3StorageDriver;
    expect(driver).toBeInstanceOf(S3StorageDriver);
    expect(driver.location).toBe("s3://payloads/agents");
    driver.client?.destroy();
    const aws = storageConfigFromEnv({
      LITE_AGENT_STORAGE: "s3",
      LITE_AGENT_S3_BUCKET: "b",
      AWS_REGION: "eu-west-1",
    });
    expect(aws).toMatchObject({
      region: "eu-west-1",
      forcePathStyle: false,
      endpoint: undefined,
      prefix: "",
    });
  });

  it("off means no storage; mistakes are clear errors", () => {
    expect(storageConfigFromEnv({ LITE_AGENT_STORAGE: "off" })).toEqual({ kind: "off" });
    expect(createExternalStorage({ kind: "off" })).toBeUndefined();
    expect(() => storageConfigFromEnv({ LITE_AGENT_STORAGE: "s3" })).toThrow(/LITE_AGENT_S3_BUCKET/);
    expect(() => storageConfigFromEnv({ LITE_AGENT_STORAGE: "gcs" })).toThrow(
      /'fs', 's3' or 'off', not 'gcs'/,
    );
    expect(() => storageConfigFromEnv({ LITE_AGENT_STORAGE_THRESHOLD: "1MB" })).toThrow(
      /whole number of bytes/,
    );
  });

  it("adds storage to a data converter, keeping the caller's own storage and other settings", () => {
    const own = createExternalStorage({ kind: "fs", dir: "/tmp/own", threshold: 1 })!;
    const base = { payloadConverterPath: "/x.js", externalStorage: own };
    expect(withPayloadStorage(base, undefined)).toBe(base);
    expect(withPayloadStorage({ payloadConverterPath: "/x.js" }, own)).toEqual({
      payloadConverterPath: "/x.js",
      externalStorage: own,
    });
    expect(withPayloadStorage(undefined, false)).toBeUndefined();
  });
});

describe("blob keys", () => {
  it("scope payloads by namespace and session, encoding every character that could escape a segment", () => {
    const digest = "a".repeat(64);
    expect(blobKey({ kind: "workflow", namespace: "default", id: "ticket-7" }, digest)).toBe(
      `default/sessions/ticket-7/${digest}`,
    );
    expect(encodeKeySegment("../x/y.z")).toBe("%2E%2E%2Fx%2Fy%2Ez");
    expect(sessionKeyPrefix("prod", "a b")).toBe("prod/sessions/a%20b/");
    expect(blobKey({ kind: "activity", namespace: "default", id: "act-1" }, digest)).toBe(
      `default/activities/act-1/${digest}`,
    );
    expect(blobKey({ kind: "workflow", namespace: "default" }, digest)).toBe(`default/unscoped/${digest}`);
    expect(blobKey(undefined, digest)).toBe(`unscoped/${digest}`);
  });
});
