import path from "node:path";

/** Payloads of at least this many bytes travel by reference unless configured otherwise: 128 KiB. */
export const DEFAULT_PAYLOAD_THRESHOLD = 128 * 1024;

/** Which external payload storage a process uses; worker and client must agree. */
export type PayloadStorageConfig =
  | { kind: "off" }
  | { kind: "fs"; dir: string; threshold: number }
  | {
      kind: "s3";
      bucket: string;
      prefix: string;
      endpoint: string | undefined;
      region: string;
      forcePathStyle: boolean;
      threshold: number;
    };

/**
 * The default folder of the filesystem driver: `<project>/.cache/temporal/payloads`, beside the dev server's cache
 * of Temporal binaries (git-ignored with it).
 */
export function defaultPayloadDir(projectDir: string = process.cwd()): string {
  return path.join(projectDir, ".cache", "temporal", "payloads");
}

/**
 * Reads the payload storage settings from the `LITE_AGENT_STORAGE*` and `LITE_AGENT_S3_*` variables (table and
 * defaults: docs/operations.md; default `fs`, 128 KiB threshold). S3 credentials come from the AWS SDK's usual chain.
 * Throws a clear error on an unknown kind, a bad threshold or a missing bucket.
 */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv = process.env): PayloadStorageConfig {
  const kind = (env.LITE_AGENT_STORAGE ?? "fs").trim().toLowerCase() || "fs";
  const threshold = parseThreshold(env.LITE_AGENT_STORAGE_THRESHOLD);
  if (kind === "off" || kind === "none" || kind === "inline") return { kind: "off" };
  if (kind === "fs")
    return { kind: "fs", dir: path.resolve(env.LITE_AGENT_STORAGE_DIR || defaultPayloadDir()), threshold };
  if (kind === "s3") {
    const bucket = env.LITE_AGENT_S3_BUCKET?.trim();
    if (!bucket)
      throw new Error(
        "LITE_AGENT_STORAGE=s3 needs LITE_AGENT_S3_BUCKET (the bucket that holds large payloads)",
      );
    const endpoint = env.LITE_AGENT_S3_ENDPOINT?.trim() || undefined;
    const pathStyle = env.LITE_AGENT_S3_FORCE_PATH_STYLE?.trim().toLowerCase();
    return {
      kind: "s3",
      bucket,
      prefix: (env.LITE_AGENT_S3_PREFIX ?? "").trim(),
      endpoint,
      region: env.LITE_AGENT_S3_REGION?.trim() || env.AWS_REGION?.trim() || "us-east-1",
      forcePathStyle:
        pathStyle === undefined || pathStyle === "" ? endpoint !== undefined : pathStyle === "true",
      threshold,
    };
  }
  throw new Error(`LITE_AGENT_STORAGE must be 'fs', 's3' or 'off', not '${env.LITE_AGENT_STORAGE}'`);
}

function parseThreshold(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_PAYLOAD_THRESHOLD;
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new Error(`LITE_AGENT_STORAGE_THRESHOLD must be a whole number of bytes, not '${value}'`);
  }
  return bytes;
}
