/** Unit project: pure code in plain Node; no network beyond loopback, no workerd. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "unit",
    root: "../..",
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
  },
});
