/** Benchmarks inside workerd (real DO SQLite, D1): the session runtime's request path. */
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { shippedModules } from "../shipped-plugin";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  plugins: [
    shippedModules(),
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          LLM_BASE_URL: inject<string>("modelUrl"),
          LLM_MODEL: "scripted",
          BENCH_COLLECTOR_URL: inject<string>("collectorUrl"),
        },
      },
    })),
  ],
  test: {
    name: "bench-workers",
    root,
    include: ["bench/workers/**/*.bench.ts"],
    setupFiles: ["test/integration/apply-migrations.ts"],
    globalSetup: ["bench/workers/global-setup.ts"],
    testTimeout: 600_000,
  },
});
