/** Benchmarks run as a separate vitest project under Node; never part of `npm test`. */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "bench",
    root: path.resolve(import.meta.dirname, ".."),
    include: ["bench/**/*.bench.ts"],
    environment: "node",
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
