import { describe, expect, it } from "vitest";
import { jsonObjectSpan } from "../../../src/kernel/codecs/json-object-span.js";

describe("jsonObjectSpan", () => {
  it("returns the object up to its matching brace and ignores what follows", () => {
    expect(jsonObjectSpan('{"a":{"b":[1,{}]}} and then {"c":1}')).toBe('{"a":{"b":[1,{}]}}');
  });

  it("skips braces and escaped quotes inside strings", () => {
    expect(jsonObjectSpan('{"a":"} \\" {"} tail')).toBe('{"a":"} \\" {"}');
  });

  it("starts at the given index and is undefined when no object opens there or it never closes", () => {
    expect(jsonObjectSpan('x {"a":1}', 2)).toBe('{"a":1}');
    expect(jsonObjectSpan('x {"a":1}', 0)).toBeUndefined();
    expect(jsonObjectSpan('{"a":{"b":1}')).toBeUndefined();
  });
});
