/** Unit project: pure code in plain Node; no network beyond loopback, no workerd. */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "unit",
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
  },
});
