/**
 * The test pyramid: `unit` (plain Node, milliseconds), `golden` (plain Node, CPU-heavy golden and
 * corpus tests with explicit timeouts), `workers` (inside workerd through @cloudflare/vitest-plugin,
 * real DO SQLite / D1 / R2 / Queues), `e2e` (Chromium against `npm start`).
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Keep the JSON request logs of passing tests out of the report; failing tests still show theirs.
    silent: "passed-only",
    // The default report, then one closing line: `N passed, N failed[, N skipped]`.
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // A run-wide option (projects cannot set it): global teardowns stop the e2e apps (each SIGTERM →
    // SIGKILL after at most 30 s); a cap for a hung teardown, generous for a loaded machine.
    teardownTimeout: 90_000,
    projects: [
      "test/unit/vitest.config.ts",
      "test/golden/vitest.config.ts",
      "test/integration/vitest.config.ts",
      "test/e2e/vitest.config.ts",
    ],
  },
});
