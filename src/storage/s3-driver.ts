import type * as S3 from "@aws-sdk/client-s3";
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import {
  StorageDriverClaim,
  type Payload,
  type StorageDriverRetrieveContext,
  type StorageDriverStoreContext,
} from "@temporalio/common";
import { blobKey, checkBlobKey, sessionKeyPrefix, type BlobKey } from "./blob-key.js";
import { blobToPayload, payloadToBlob } from "./payload-blob.js";
import { PayloadBlobMissingError } from "./payload-blob-missing-error.js";
import type { SessionBlobDriver } from "./session-blob-driver.js";
import { assertInstalled, importOptional } from "../runtime/optional-package.js";

const FEATURE = "S3 payload storage";
/** The AWS SDK's S3 client, an optional peer dependency loaded on first use. */
const loadS3 = () => importOptional(FEATURE, ["@aws-sdk/client-s3"], () => import("@aws-sdk/client-s3"));

/** Options of {@link S3StorageDriver}. */
export interface S3StorageDriverOptions {
  /** The bucket (it must exist; the driver does not create it). */
  bucket: string;
  /** Key prefix inside the bucket, without a trailing slash; default none. */
  prefix?: string;
  /** A client of your own; otherwise one is built from `clientConfig` and the AWS credential chain. */
  client?: S3Client;
  /** Endpoint, region, path style, credentials (an S3-compatible server needs `endpoint` and `forcePathStyle`). */
  clientConfig?: S3ClientConfig;
  /** Routing name written into each reference; default `lite-agent-s3`. Keep it stable: old claims name it. */
  name?: string;
}

const DELETE_BATCH = 1000;

/**
 * Stores large payloads as S3 objects (`<prefix>/<namespace>/sessions/<session id>/<sha256>`), the production driver;
 * any S3-compatible server works via `clientConfig.endpoint` and `forcePathStyle`. Content-addressed (a retried store
 * writes the same key); expire objects by a lifecycle rule longer than the namespace's retention (docs/operations.md).
 */
export class S3StorageDriver implements SessionBlobDriver {
  readonly name: string;
  readonly type = "lite-agent.s3";
  readonly bucket: string;
  readonly prefix: string;
  private readonly options: S3StorageDriverOptions;
  private sdk: typeof S3 | undefined;
  private ownClient: S3Client | undefined;

  /** Fails at once, naming the package to install, when `@aws-sdk/client-s3` is not installed. */
  constructor(options: S3StorageDriverOptions) {
    if (!options.bucket) throw new Error("S3StorageDriver needs a bucket (LITE_AGENT_S3_BUCKET)");
    assertInstalled(FEATURE, ["@aws-sdk/client-s3"]);
    this.options = options;
    this.bucket = options.bucket;
    this.prefix = (options.prefix ?? "").replace(/^\/+|\/+$/g, "");
    this.name = options.name ?? "lite-agent-s3";
  }

  /** The S3 client: yours, or the one built from `clientConfig` at the first call (undefined before it). */
  get client(): S3Client | undefined {
    return this.options.client ?? this.ownClient;
  }

  /** The SDK's module and the client, loading the SDK on first use. */
  private async s3(): Promise<{ sdk: typeof S3; client: S3Client }> {
    this.sdk ??= await loadS3();
    const client = (this.ownClient ??=
      this.options.client ?? new this.sdk.S3Client(this.options.clientConfig ?? {}));
    return { sdk: this.sdk, client };
  }

  get location(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  /** The object key of a blob key. */
  objectKey(key: BlobKey): string {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async store(context: StorageDriverStoreContext, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        const blob = payloadToBlob(payload);
        const key = blobKey(context.target, blob.digest);
        const { sdk, client } = await this.s3();
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: this.bucket,
            Key: this.objectKey(key),
            Body: blob.bytes,
            ContentType: "application/x-protobuf",
          }),
          { abortSignal: context.abortSignal },
        );
        return new StorageDriverClaim({ bucket: this.bucket, key, bytes: String(blob.bytes.length) });
      }),
    );
  }

  async retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return Promise.all(
      claims.map(async (claim) => {
        const key = claim.claimData.key;
        const digest = checkBlobKey(key);
        const bucket = claim.claimData.bucket || this.bucket;
        const objectKey = this.objectKey(key!);
        const where = `s3://${bucket}/${objectKey}`;
        const { sdk, client } = await this.s3();
        try {
          const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey }), {
            abortSignal: context.abortSignal,
          });
          if (!object.Body) throw new PayloadBlobMissingError(this.name, key!, where);
          return blobToPayload(await object.Body.transformToByteArray(), digest, `'${key}' (${where})`);
        } catch (error) {
          if (isNotFound(error)) throw new PayloadBlobMissingError(this.name, key!, where);
          throw error;
        }
      }),
    );
  }

  async listSessionBlobs(namespace: string, sessionId: string): Promise<BlobKey[]> {
    const keys: BlobKey[] = [];
    const prefix = this.objectKey(sessionKeyPrefix(namespace, sessionId));
    const { sdk, client } = await this.s3();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) keys.push(this.prefix ? object.Key.slice(this.prefix.length + 1) : object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async deleteSessionBlobs(namespace: string, sessionId: string): Promise<number> {
    const keys = await this.listSessionBlobs(namespace, sessionId);
    const { sdk, client } = await this.s3();
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const result = await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.objectKey(key) })), Quiet: true },
        }),
      );
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new Error(
          `could not delete ${failed.length} stored payload(s) of session '${sessionId}' in s3://${this.bucket}: ` +
            `${first.Key}: ${first.Code} ${first.Message}`,
        );
      }
    }
    return keys.length;
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof PayloadBlobMissingError) return true;
  const name = (error as { name?: string } | null)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return name === "NoSuchKey" || (status === 404 && name !== "NoSuchBucket");
}
