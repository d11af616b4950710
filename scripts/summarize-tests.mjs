// Prints the plain closing line "N passed, N failed" from vitest's JSON report and exits non-zero on any failure.
// Usage: node scripts/summarize-tests.mjs <report.json> <failed checks before the tests> <vitest exit status>
import { existsSync, readFileSync } from "node:fs";

const [reportPath, extraFailedArg = "0", statusArg = "0"] = process.argv.slice(2);
const extraFailed = Number(extraFailedArg);
const status = Number(statusArg);
let passed = 0;
let failed = extraFailed;
if (reportPath && existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  passed = report.numPassedTests ?? 0;
  // A file that failed to load or whose hooks failed has no failed test of its own: count it once.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
  ).length;
  failed += (report.numFailedTests ?? 0) + brokenFiles;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (skipped > 0) {
    console.log(`${skipped} test(s) skipped or todo: CI allows none`);
    failed += skipped;
  }
} else {
  failed += 1;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
