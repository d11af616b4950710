import { sha256 } from "../hash/sha256.js";
import { stableStringify } from "../hash/stable-stringify.js";

/**
 * The id of a tool call the model gave no id for: `call_` + 16 hex of a SHA-256 over the raw response, the call's
 * position, name and input (stable JSON; missing input counts as `{}`). Deterministic, so ids stay stable across
 * decode retries, activity retries and workflow replays.
 */
export function deterministicCallId(raw: string, index: number, name: string, input: unknown): string {
  const digest = sha256(stableStringify([raw, index, name, input ?? {}]));
  return `call_${digest.slice(0, 16)}`;
}
