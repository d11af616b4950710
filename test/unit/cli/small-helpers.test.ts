import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { exitCodeForStop } from "../../../src/cli/exit-codes.js";
import { formatDuration } from "../../../src/cli/render/format-duration.js";
import {
  parseCommaList,
  parsePort,
  parsePositiveNumber,
  parseWholeNumber,
} from "../../../src/cli/options/parse-options.js";
import { shellQuote } from "../../../src/terminal/shell-quote.js";

describe("formatDuration", () => {
  it("keeps the two largest units", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(45_900)).toBe("45s");
    expect(formatDuration(200_000)).toBe("3m 20s");
    expect(formatDuration(86_340_000)).toBe("23h 59m");
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000 + 59_000)).toBe("2d 4h");
    expect(formatDuration(3_600_000 + 30_000)).toBe("1h");
  });

  it("counts a negative duration as zero", () => {
    expect(formatDuration(-5_000)).toBe("0s");
  });
});

describe("shellQuote", () => {
  it("leaves safe words alone and single-quotes the rest", () => {
    expect(shellQuote("session-1_a.b:c")).toBe("session-1_a.b:c");
    expect(shellQuote("two words")).toBe("'two words'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("")).toBe("''");
  });
});

describe("option parsers", () => {
  it("accept what they name and reject the rest as invalid arguments", () => {
    expect(parseWholeNumber(" 0 ")).toBe(0);
    expect(parsePositiveNumber("12")).toBe(12);
    expect(parsePort("7233")).toBe(7233);
    expect(parseCommaList(" red, ,blue ")).toEqual(["red", "blue"]);
    for (const [parse, value] of [
      [parseWholeNumber, "-1"],
      [parseWholeNumber, "1.5"],
      [parsePositiveNumber, "0"],
      [parsePort, "70000"],
      [parseCommaList, " , "],
    ] as const) {
      expect(() => parse(value), `${parse.name}(${value})`).toThrow(InvalidArgumentError);
    }
  });
});

describe("exitCodeForStop", () => {
  it("is 0 for a run that stopped, 130 when aborted, 1 otherwise", () => {
    expect([
      exitCodeForStop("stop"),
      exitCodeForStop("aborted"),
      exitCodeForStop("error"),
      exitCodeForStop("max_turns"),
    ]).toEqual([0, 130, 1, 1]);
  });
});
