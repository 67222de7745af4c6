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
    projects: [
      "test/unit/vitest.config.ts",
      "test/golden/vitest.config.ts",
      "test/integration/vitest.config.ts",
      "test/e2e/vitest.config.ts",
    ],
  },
});
