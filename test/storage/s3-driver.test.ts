import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3StorageDriver } from "../../src/storage/s3-driver.js";
import { startMotoServer, type MotoServer } from "../support/moto-server.js";
import { jsonPayload, session, sessionBlobDriverCases } from "./driver-cases.js";

// moto accepts any credentials; the SDK only needs some to sign requests.
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

describe("S3 storage driver (against moto's S3-compatible server)", () => {
  let moto: MotoServer;
  let driver: S3StorageDriver;

  beforeAll(async () => {
    moto = await startMotoServer((line) => console.error(line));
    const client = new S3Client({
      endpoint: moto.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials,
    });
    await client.send(new CreateBucketCommand({ Bucket: "payloads" }));
    driver = new S3StorageDriver({ bucket: "payloads", prefix: "lite-agent/test", client });
  }, 360_000);
  afterAll(async () => {
    driver?.client?.destroy();
    await moto?.stop();
  });

  sessionBlobDriverCases(() => driver);

  it("writes objects under the prefix and names bucket and key in the claim", async () => {
    const [claim] = await driver.store({ target: session("objects") }, [jsonPayload("in a bucket")]);
    expect(claim!.claimData.bucket).toBe("payloads");
    expect(await driver.listSessionBlobs("default", "objects")).toEqual([claim!.claimData.key]);
    expect(driver.objectKey(claim!.claimData.key!)).toMatch(
      /^lite-agent\/test\/default\/sessions\/objects\//,
    );
  });

  it("a missing bucket is reported as such, not as a missing payload", async () => {
    const [claim] = await driver.store({ target: session("bucket") }, [jsonPayload("x")]);
    const elsewhere = new S3StorageDriver({ bucket: "no-such-bucket", client: driver.client! });
    await expect(elsewhere.retrieve({}, [{ claimData: { key: claim!.claimData.key! } }])).rejects.toThrow(
      /bucket/i,
    );
  });
});
