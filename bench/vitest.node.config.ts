/** Node benchmarks (engine, runtime loop, market cache): bench/*.bench.ts. */
import path from "node:path";
import { defineConfig } from "vitest/config";
import { shippedModules } from "./shipped-plugin";

export default defineConfig({
  plugins: [shippedModules()],
  test: {
    name: "bench-node",
    root: path.resolve(import.meta.dirname, ".."),
    include: ["bench/*.bench.ts"],
    environment: "node",
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
