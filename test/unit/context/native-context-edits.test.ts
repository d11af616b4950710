import { describe, expect, it } from "vitest";
import { nativeContextEdits } from "../../../src/kernel/context/edits/native-context-edits.js";

describe("nativeContextEdits", () => {
  const all = { clearToolUses: true, clearThinking: true, compact: true };

  it("enables clearToolUses from L1, clearThinking from L2 and compact from L4", () => {
    expect(nativeContextEdits(0, all)).toEqual({});
    expect(nativeContextEdits(1, all)).toEqual({ clearToolUses: true });
    expect(nativeContextEdits(3, all)).toEqual({ clearToolUses: true, clearThinking: true });
    expect(nativeContextEdits(5, all)).toEqual(all);
  });

  it("asks only for what the provider supports", () => {
    expect(nativeContextEdits(5, { compact: true })).toEqual({ compact: true });
    expect(nativeContextEdits(5, undefined)).toEqual({});
  });
});
