import { sha256 as sha256Bytes } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

/**
 * The SHA-256 of a string's UTF-8 bytes as lowercase hex; lone surrogates become U+FFFD. Pure JavaScript
 * (`@noble/hashes`), so it runs in the workflow sandbox and gives the same ids there as in-process.
 */
export function sha256(text: string): string {
  return bytesToHex(sha256Bytes(new TextEncoder().encode(text)));
}
