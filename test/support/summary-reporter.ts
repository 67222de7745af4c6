/**
 * The closing line of `npm test`, alone on the last line: `N passed, N failed` (`, N skipped` when
 * some were). Failures count failed tests, plus each file that failed outside any test (import
 * error, failing hook) and each unhandled error, so a broken run never reads "0 failed".
 */
import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

export function summaryLine(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
): string {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const module of testModules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") passed += 1;
      else if (state === "failed") failedHere += 1;
      else skipped += 1;
    }
    failed += failedHere > 0 ? failedHere : module.state() === "failed" ? 1 : 0;
  }
  failed += unhandledErrors.length;
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    process.stdout.write(`\n${summaryLine(testModules, unhandledErrors)}\n`);
  }
}
