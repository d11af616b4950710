import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../../src/kernel/checkpoint/iso-timestamp.js";

describe("isoTimestamp", () => {
  it("formats the epoch and a known instant", () => {
    expect(isoTimestamp(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(isoTimestamp(1_735_787_045_678)).toBe("2025-01-02T03:04:05.678Z");
  });

  it("agrees with Date#toISOString around leap days, century rules and negative times", () => {
    const instants = [
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      -62_135_596_800_001, // 0000-12-31T23:59:59.999Z
      -62_167_219_200_000, // 0000-01-01, the last four-digit year
      -62_198_755_200_001, // year -2: six digits with a sign
      253_402_300_800_000, // year 10000: six digits with a plus
    ];
    for (let ms = -5e12; ms <= 5e12; ms += 7_777_777_777) instants.push(ms);
    for (const ms of instants) expect(isoTimestamp(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it("drops sub-millisecond fractions like Date does", () => {
    expect(isoTimestamp(1.9)).toBe(new Date(1.9).toISOString());
  });

  it("rejects a value that is not a finite number", () => {
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimestamp(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
