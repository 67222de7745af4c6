/**
 * Golden project: CPU-heavy pure tests in plain Node — whole-engine outputs on fixed seeded universes
 * compared with a golden file, and recall/precision over hundreds of generated schematics. They take
 * seconds of CPU each (tens of seconds on a loaded 2-core machine), so they live apart from the quick
 * unit tests and carry explicit timeouts: caps for a hung test, not budgets a slow machine misses.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "golden",
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["test/golden/**/*.test.ts"],
    environment: "node",
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
