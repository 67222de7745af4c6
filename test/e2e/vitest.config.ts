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
    // A ceiling for a hung test, not a budget: on a 2-core machine at load 20+ a whole browser
    // test took 30 s (10–20 s idle). Polls wait for the app, not for a fixed time.
    testTimeout: 90_000,
    expect: { poll: { timeout: 20_000, interval: 50 } },
    hookTimeout: 60_000,
  },
});
