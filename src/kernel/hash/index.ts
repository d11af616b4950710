/** Pure hashing helpers shared by the codecs (call ids) and the ContextEngine (fingerprints, archive refs). */
export { sha256 } from "./sha256.js";
export { stableStringify } from "./stable-stringify.js";
