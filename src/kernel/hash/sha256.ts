import { sha256 as sha256Bytes } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

/**
 * The SHA-256 of a string's UTF-8 bytes, as lowercase hex. `@noble/hashes` is pure JavaScript (no Node built-ins),
 * so the same function runs in the workflow sandbox and gives the same ids there as in-process. Lone surrogates
 * become U+FFFD, as in Node and TextEncoder.
 *
 * @example sha256("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256(text: string): string {
  return bytesToHex(sha256Bytes(new TextEncoder().encode(text)));
}
