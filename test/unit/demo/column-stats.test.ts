import { describe, expect, it } from "vitest";
import { columnStats, parseNumberCell } from "../../../src/demo/tools/column-stats.js";
import { parseCsv } from "../../../src/demo/tools/csv-table.js";

const table = parseCsv("region,units,price\nNorth,10,0.1\nSouth,5,0.2\nNorth,n/a,0.3\nWest,,x\nSouth,7,\n");

describe("columnStats", () => {
  it("computes count, sum, mean, min and max of the numeric cells and counts the others as skipped", () => {
    expect(columnStats(table, "units")).toEqual({
      column: "units",
      count: 3,
      skipped: 2,
      sum: 22,
      mean: 7.333333,
      min: 5,
      max: 10,
    });
  });

  it("rounds away floating-point noise in sums", () => {
    expect(columnStats(table, "price").sum).toBe(0.6);
  });

  it("matches the column name without regard to case and reports it as written in the header", () => {
    expect(columnStats(table, "UNITS").column).toBe("units");
  });

  it("groups by another column, largest sum first", () => {
    const stats = columnStats(table, "units", "region");
    expect(stats.groupBy).toBe("region");
    expect(stats.groups).toEqual([
      { key: "South", count: 2, sum: 12, mean: 6 },
      { key: "North", count: 1, sum: 10, mean: 10 },
    ]);
  });

  it("names the existing columns when a column is missing", () => {
    expect(() => columnStats(table, "revenue")).toThrow(
      "no column 'revenue'; the columns are: region, units, price",
    );
    expect(() => columnStats(table, "units", "month")).toThrow("no column 'month'");
  });

  it("refuses a column without any number", () => {
    expect(() => columnStats(table, "region")).toThrow("column 'region' holds no numbers");
  });
});

describe("parseNumberCell", () => {
  it("reads plain decimal numbers and nothing else", () => {
    expect(parseNumberCell(" 12.50 ")).toBe(12.5);
    expect(parseNumberCell("-3e2")).toBe(-300);
    expect(parseNumberCell(".5")).toBe(0.5);
    for (const cell of ["", "1,000", "12 kg", "0x10", "Infinity", undefined])
      expect(parseNumberCell(cell)).toBeUndefined();
  });
});
