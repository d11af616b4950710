/** Pure hashing helpers shared by the codecs (call ids), the ContextEngine (fingerprints, archive refs) and ids. */
export { idDigest } from "./id-digest.js";
export { sha256 } from "./sha256.js";
export { stableStringify } from "./stable-stringify.js";
