import { describe, expect, it } from "vitest";
import { parseRetryAfterMs } from "../../../src/providers/openai-retry-after.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const parse = (headers: Record<string, string>) => parseRetryAfterMs(new Headers(headers), () => NOW);

describe("parseRetryAfterMs", () => {
  it("reads retry-after in seconds, fractional ones too", () => {
    expect(parse({ "retry-after": "2" })).toBe(2000);
    expect(parse({ "retry-after": "0.5" })).toBe(500);
  });

  it("reads retry-after as an HTTP date, relative to now", () => {
    expect(parse({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" })).toBe(7000);
  });

  it("gives 0 for a date in the past", () => {
    expect(parse({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" })).toBe(0);
  });

  it("prefers retry-after-ms, in milliseconds", () => {
    expect(parse({ "retry-after-ms": "1250.5", "retry-after": "9" })).toBe(1250.5);
  });

  it("falls back to retry-after when retry-after-ms is unreadable", () => {
    expect(parse({ "retry-after-ms": "soon", "retry-after": "1" })).toBe(1000);
  });

  it("gives undefined without a readable header", () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ "retry-after": "later" })).toBeUndefined();
    expect(parse({ "retry-after": "-3" })).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });
});
