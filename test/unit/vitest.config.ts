/** Unit project: pure code in plain Node; no network beyond loopback, no workerd. */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The reading room's pure modules (test/unit/web) import the worker's contracts through the web aliases.
  resolve: {
    alias: {
      "@contracts": path.resolve(import.meta.dirname, "../../worker/contracts"),
      "@tool-specs": path.resolve(import.meta.dirname, "../../worker/tools/specs"),
    },
  },
  test: {
    name: "unit",
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
    // Quick tests; the CPU-heavy ones live in the golden project. A cap above the 5 s default so a
    // loaded 2-core machine does not turn a sub-second test into a timeout.
    testTimeout: 30_000,
  },
});
