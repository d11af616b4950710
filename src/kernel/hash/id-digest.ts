import { sha256 } from "./sha256.js";

/**
 * A short digest (16 hex digits of SHA-256) of text from model output, for ids the server stores in plain text
 * (activity ids, child workflow ids): the same call gets the same id, and no content reaches an id.
 */
export function idDigest(text: string): string {
  return sha256(text).slice(0, 16);
}
