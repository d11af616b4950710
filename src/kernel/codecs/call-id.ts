import { sha256 } from "../hash/sha256.js";
import { stableStringify } from "../hash/stable-stringify.js";

/**
 * The id of a tool call the model gave no id for: `"call_"` + the first 16 hex characters of a SHA-256 over
 * the raw response text, the call's position in it, its name and its input (stable JSON, so key order does not
 * matter; a missing input counts as `{}`). The same response always decodes to the same ids, which keeps ids
 * stable across decode retries, activity retries and workflow replays, where a random id would not be.
 * @example deterministicCallId('{"tool":"echo"}', 0, "echo", {}) // "call_" + 16 hex characters
 */
export function deterministicCallId(raw: string, index: number, name: string, input: unknown): string {
  const digest = sha256(stableStringify([raw, index, name, input ?? {}]));
  return `call_${digest.slice(0, 16)}`;
}
