import { describe, expect, it } from "vitest";
import { deterministicCallId } from "../../../src/kernel/codecs/call-id.js";
import { sha256 } from "../../../src/kernel/hash/sha256.js";

describe("deterministicCallId", () => {
  it('is "call_" plus the first 16 hex characters of sha256 over the stable JSON of its parts', () => {
    const id = deterministicCallId("raw", 0, "echo", { b: 2, a: 1 });
    expect(id).toBe(`call_${sha256('["raw",0,"echo",{"a":1,"b":2}]').slice(0, 16)}`);
    expect(id).toMatch(/^call_[0-9a-f]{16}$/);
  });

  it("is the same for equal inputs whatever their key order", () => {
    expect(deterministicCallId("r", 1, "t", { x: 1, y: 2 })).toBe(
      deterministicCallId("r", 1, "t", { y: 2, x: 1 }),
    );
  });

  it("changes when the raw text, index, name or input changes", () => {
    const base = deterministicCallId("r", 0, "t", { x: 1 });
    const variants = [
      deterministicCallId("r2", 0, "t", { x: 1 }),
      deterministicCallId("r", 1, "t", { x: 1 }),
      deterministicCallId("r", 0, "u", { x: 1 }),
      deterministicCallId("r", 0, "t", { x: 2 }),
    ];
    expect(new Set([base, ...variants]).size).toBe(5);
  });

  it("treats a missing input as an empty object", () => {
    expect(deterministicCallId("r", 0, "t", undefined)).toBe(deterministicCallId("r", 0, "t", {}));
  });
});
