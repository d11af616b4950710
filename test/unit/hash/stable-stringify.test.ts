import { describe, expect, it } from "vitest";
import { stableStringify } from "../../../src/kernel/hash/stable-stringify.js";

describe("stableStringify", () => {
  it("sorts object keys at every depth", () => {
    expect(stableStringify({ b: 1, a: { d: [{ z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it("gives the same text for objects built in different key orders", () => {
    expect(stableStringify({ x: 1, y: [1, 2] })).toBe(stableStringify({ y: [1, 2], x: 1 }));
  });

  it("follows JSON.stringify for undefined, non-finite numbers, -0 and toJSON", () => {
    expect(stableStringify({ a: undefined, b: () => 1, c: [undefined, NaN, Infinity], d: -0 })).toBe(
      '{"c":[null,null,null],"d":0}',
    );
    expect(stableStringify({ when: { toJSON: () => "then" } })).toBe('{"when":"then"}');
    expect(stableStringify('quote " and \n')).toBe(JSON.stringify('quote " and \n'));
  });

  it('returns "null" for a top-level value with no JSON form', () => {
    expect(stableStringify(undefined)).toBe("null");
    expect(stableStringify(null)).toBe("null");
  });

  it("throws on cycles and bigints but accepts a shared non-cyclic object", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => stableStringify(cycle)).toThrow(TypeError);
    expect(() => stableStringify({ n: 1n })).toThrow(TypeError);
    const shared = { k: 1 };
    expect(stableStringify([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });
});
