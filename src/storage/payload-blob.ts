import { createHash } from "node:crypto";
import type { Payload } from "@temporalio/common";
// A default import: @temporalio/proto is CommonJS without named exports that Node's ESM loader can see.
import proto from "@temporalio/proto";

const PayloadProto = proto.temporal.api.common.v1.Payload;

/** A payload as stored: its protobuf encoding (metadata and data) and the SHA-256 of those bytes. */
export interface PayloadBlob {
  bytes: Uint8Array;
  /** Lower-case hex SHA-256 of `bytes`; the last segment of the blob's key. */
  digest: string;
}

/** Serialises a payload (metadata included) for storage. */
export function payloadToBlob(payload: Payload): PayloadBlob {
  const bytes = PayloadProto.encode(payload).finish();
  return { bytes, digest: sha256Hex(bytes) };
}

/**
 * Restores a stored payload, checking that its bytes still hash to `digest` (a truncated or altered blob is
 * reported, never handed to the workflow).
 */
export function blobToPayload(bytes: Uint8Array, digest: string, where: string): Payload {
  const actual = sha256Hex(bytes);
  if (actual !== digest) {
    throw new Error(
      `stored payload ${where} is corrupt: its SHA-256 is ${actual}, the claim expects ${digest}`,
    );
  }
  const decoded = PayloadProto.decode(bytes);
  return { metadata: decoded.metadata, data: decoded.data };
}

/** Lower-case hex SHA-256. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
