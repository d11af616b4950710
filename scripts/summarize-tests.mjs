// Prints the plain closing line "N passed, N failed" over every test pass of a CI run (vitest's JSON reports) and
// exits non-zero on any failure.
// Usage: node scripts/summarize-tests.mjs <failed checks before the tests> <report.json>:<vitest exit status>...
import { existsSync, readFileSync } from "node:fs";

const [extraFailedArg = "0", ...passes] = process.argv.slice(2);
let passed = 0;
let failed = Number(extraFailedArg);
if (passes.length === 0) failed += 1;
for (const pass of passes) {
  const separator = pass.lastIndexOf(":");
  const counts = countReport(pass.slice(0, separator), Number(pass.slice(separator + 1)));
  passed += counts.passed;
  failed += counts.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/** The tests one pass passed and failed; a missing report, or a failed run with no failed test, counts one failure. */
function countReport(reportPath, status) {
  if (!reportPath || !existsSync(reportPath)) {
    console.log(
      `FAILED ${reportPath || "a pass"}: no report (the pass did not run its tests; its output says why)`,
    );
    return { passed: 0, failed: 1 };
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  // A file that failed to load or whose hooks failed has no failed test of its own: count it once.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
  ).length;
  let failed = (report.numFailedTests ?? 0) + brokenFiles;
  printFailures(reportPath, report);
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (skipped > 0) {
    console.log(`${reportPath}: ${skipped} test(s) skipped or todo: CI allows none`);
    failed += skipped;
  }
  if (status !== 0 && failed === 0) failed = 1;
  return { passed: report.numPassedTests ?? 0, failed };
}

/** Names every failed test and broken file of one pass, so the run's tail says what failed and where. */
function printFailures(reportPath, report) {
  for (const file of report.testResults ?? []) {
    const failedTests = file.assertionResults.filter((test) => test.status === "failed");
    if (file.status === "failed" && failedTests.length === 0) {
      console.log(`FAILED ${reportPath}: ${file.name} (did not load, or a hook failed)`);
      console.log(why([file.message || "(no message in the report)"]));
    }
    for (const test of failedTests) {
      console.log(`FAILED ${reportPath}: ${file.name} > ${test.fullName ?? test.title}`);
      console.log(why(test.failureMessages ?? []));
    }
  }
}

/** The head of a failed test's first failure message, indented: enough to say why without the report. */
function why(messages) {
  const lines = (messages[0] ?? "(no failure message)").split("\n");
  const head = lines.slice(0, 40).map((line) => `    ${line}`);
  if (lines.length > 40) head.push(`    ... ${lines.length - 40} more line(s) in the report`);
  return head.join("\n");
}
