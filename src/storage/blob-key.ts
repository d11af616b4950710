import type { StorageDriverTargetInfo } from "@temporalio/common";

/**
 * A stored payload's key for every driver: `<namespace>/sessions/<workflow id>/<sha256>` (a workflow's payloads, its
 * activities' too), `<namespace>/activities/<activity id>/<sha256>` or `<namespace>/unscoped/<sha256>`, the SHA-256 of
 * the bytes. Segments are percent-encoded (`.` too), so a key never leaves its folder or matches another session.
 */
export type BlobKey = string;

const ENCODED_SEGMENT = /^[A-Za-z0-9%_~-]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Percent-encodes one key segment (everything but letters, digits, `-`, `_`, `~`). */
export function encodeKeySegment(value: string): string {
  if (value === "") return "%00";
  return encodeURIComponent(value).replace(
    /[!'()*.]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The key prefix (ending in `/`) under which all payloads of one session are stored. */
export function sessionKeyPrefix(namespace: string, sessionId: string): string {
  return `${encodeKeySegment(namespace)}/sessions/${encodeKeySegment(sessionId)}/`;
}

/** The key of a payload with SHA-256 `digest`, stored for `target`. */
export function blobKey(target: StorageDriverTargetInfo | undefined, digest: string): BlobKey {
  if (!target) return `unscoped/${digest}`;
  const namespace = encodeKeySegment(target.namespace);
  if (target.id === undefined || target.id === "") return `${namespace}/unscoped/${digest}`;
  if (target.kind === "workflow") return `${sessionKeyPrefix(target.namespace, target.id)}${digest}`;
  return `${namespace}/activities/${encodeKeySegment(target.id)}/${digest}`;
}

/**
 * Checks a key read from a claim (claims come from workflow histories, which are input like any other): only
 * encoded segments, ending in a SHA-256. Returns the digest; throws a clear error otherwise.
 */
export function checkBlobKey(key: unknown): string {
  if (typeof key !== "string" || key === "") throw new Error("payload claim has no 'key'");
  const segments = key.split("/");
  const digest = segments.at(-1) ?? "";
  if (!segments.every((segment) => ENCODED_SEGMENT.test(segment)) || !SHA256_HEX.test(digest)) {
    throw new Error(`payload claim has a malformed key '${key}'`);
  }
  return digest;
}
