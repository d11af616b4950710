import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../src/demo/tools/csv-table.js";

describe("parseCsv", () => {
  it("splits the header from the rows and trims header names", () => {
    expect(parseCsv(" a , b\n1,2\n3,4\n")).toEqual({
      header: ["a", "b"],
      rows: [
        ["1", "2"],
        ["3", "4"],
      ],
    });
  });

  it("keeps commas, quotes and newlines inside quoted fields", () => {
    const table = parseCsv('name,note\n"Smith, J","said ""hi"""\n"multi\nline",x\n');
    expect(table.rows).toEqual([
      ["Smith, J", 'said "hi"'],
      ["multi\nline", "x"],
    ]);
  });

  it("accepts CRLF line ends, a missing final newline, and skips blank lines", () => {
    expect(parseCsv("a,b\r\n1,2\r\n\r\n3,4")).toEqual({
      header: ["a", "b"],
      rows: [
        ["1", "2"],
        ["3", "4"],
      ],
    });
  });

  it("gives an empty table for empty text", () => {
    expect(parseCsv("")).toEqual({ header: [], rows: [] });
  });
});
