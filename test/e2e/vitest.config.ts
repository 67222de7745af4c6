/** End-to-end project: Debian's Chromium (playwright-core) against the app started by `npm start`. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    root: "../..",
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
