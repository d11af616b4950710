import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prefixFingerprint } from "../../../src/kernel/context/prefix-fingerprint.js";

describe("prefixFingerprint", () => {
  it("does not depend on key order and changes with the prefix", () => {
    const tools = [
      { name: "a", description: "d", parameters: { type: "object", properties: { x: {}, y: {} } } },
    ];
    const reordered = [
      { parameters: { properties: { y: {}, x: {} }, type: "object" }, description: "d", name: "a" },
    ];
    expect(prefixFingerprint({ system: "s", tools, codec: "native" })).toBe(
      prefixFingerprint({ codec: "native", tools: reordered, system: "s" }),
    );
    expect(prefixFingerprint({ system: "s", tools })).not.toBe(prefixFingerprint({ system: "t", tools }));
    expect(prefixFingerprint({ system: "s" })).toBe(
      createHash("sha256").update('{"system":"s"}').digest("hex"),
    );
  });
});
