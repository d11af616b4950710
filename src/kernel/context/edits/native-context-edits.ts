import type { NativeContextEdits, ProviderContextCapabilities } from "../../vocabulary/model.js";

/**
 * The provider-native edits for a level: `clearToolUses` from L1, `clearThinking` from L2, `compact` from L4 —
 * each only when the provider says it supports it. Level 0 asks for nothing.
 */
export function nativeContextEdits(
  level: number,
  capabilities: ProviderContextCapabilities | undefined,
): NativeContextEdits {
  const edits: NativeContextEdits = {};
  if (!capabilities) return edits;
  if (level >= 1 && capabilities.clearToolUses) edits.clearToolUses = true;
  if (level >= 2 && capabilities.clearThinking) edits.clearThinking = true;
  if (level >= 4 && capabilities.compact) edits.compact = true;
  return edits;
}
