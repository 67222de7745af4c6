/** Benchmarks (`npm run bench`): Node figures and figures measured inside workerd. Never part of `npm test`. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["bench/vitest.node.config.ts", "bench/workers/vitest.config.ts"],
  },
});
