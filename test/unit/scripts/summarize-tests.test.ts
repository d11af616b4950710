import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// .ci/run ends with this script's line over every test pass it ran (the normal one and the forced replay ones).

const dir = mkdtempSync(join(tmpdir(), "summarize-tests-"));
/** A vitest JSON report with these counts, written to a file; returns its path. */
function report(
  name: string,
  counts: { passed: number; failed?: number; skipped?: number; broken?: number },
) {
  const file = join(dir, `${name}.json`);
  const testResults = Array.from({ length: counts.broken ?? 0 }, () => ({
    status: "failed",
    assertionResults: [],
  }));
  writeFileSync(
    file,
    JSON.stringify({
      numPassedTests: counts.passed,
      numFailedTests: counts.failed ?? 0,
      numPendingTests: counts.skipped ?? 0,
      numTodoTests: 0,
      testResults,
    }),
  );
  return file;
}
function summarize(...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/summarize-tests.mjs", ...args], { encoding: "utf8" });
  return { line: result.stdout.trim().split("\n").at(-1), status: result.status };
}

describe("summarize-tests", () => {
  it("adds up every pass and the failed checks before them", () => {
    const normal = report("normal", { passed: 10 });
    const noCache = report("no-cache", { passed: 4, failed: 1 });
    expect(summarize("1", `${normal}:0`, `${noCache}:1`)).toEqual({ line: "14 passed, 2 failed", status: 1 });
    expect(summarize("0", `${normal}:0`, `${normal}:0`)).toEqual({ line: "20 passed, 0 failed", status: 0 });
  });

  it("counts a missing report, a broken file, a skipped test and a failed run without a failed test as failures", () => {
    const fine = report("fine", { passed: 3 });
    expect(summarize("0", `${fine}:0`, `${join(dir, "missing.json")}:1`).line).toBe("3 passed, 1 failed");
    expect(summarize("0", `${report("broken", { passed: 2, broken: 1 })}:1`).line).toBe("2 passed, 1 failed");
    expect(summarize("0", `${report("skipped", { passed: 2, skipped: 2 })}:0`).line).toBe(
      "2 passed, 2 failed",
    );
    expect(summarize("0", `${fine}:1`).line).toBe("3 passed, 1 failed");
    expect(summarize("0").line).toBe("0 passed, 1 failed");
  });
});
