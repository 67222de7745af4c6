/** End-to-end project: Debian's Chromium (playwright-core) against the app started by `npm start`. */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 30_000,
    // polls wait for the app, not for a fixed time; give a loaded CI machine room
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 60_000,
  },
});
