/**
 * Workers project: tests run inside workerd with the bindings of wrangler.toml. D1 migrations are
 * read here and applied in the setup file; the scripted model server and the fake market-data
 * upstream run on loopback (global setup) and reach the worker through its bindings.
 */
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          LLM_BASE_URL: inject<string>("modelUrl"),
          LLM_MODEL: "scripted",
          LLM_API_KEY: "test-key",
          LLM_FALLBACK_BASE_URL: inject<string>("modelUrl"),
          LLM_FALLBACK_MODEL: "scripted-fallback",
          LLM_FALLBACK_API_KEY: "test-key",
          LLM_IDLE_TIMEOUT_MS: "1500",
          MODEL_KEYS_SECRET: "integration-test-model-keys-secret-0123456789",
          // The soak (test/integration/soak.test.ts): "short" in `npm test`, "full" under `npm run soak`,
          // "off" when SOAK_SCALE=off is set.
          SOAK_SCALE:
            process.env.SOAK_SCALE === "full" || process.env.SOAK_SCALE === "off" ? process.env.SOAK_SCALE : "short",
          LLM_PRICES: JSON.stringify({
            scripted: { input: 2, output: 8, cacheRead: 0.5 },
            "*": { input: 1, output: 4 },
          }),
          EASTMONEY_BASE_URL: inject<string>("upstreamUrl"),
          TENCENT_BASE_URL: inject<string>("upstreamUrl"),
          YAHOO_BASE_URL: inject<string>("upstreamUrl"),
          // A test-only Ed25519 key (npm run audit:keygen) so audit entries are signed in these tests.
          AUDIT_KEY: "MC4CAQAwBQYDK2VwBCIEIAj0DIGcaMfrZx4Phzu762P/Ro8sv+2fS1k495z9MutY",
        },
      },
    })),
  ],
  test: {
    name: "workers",
    root,
    include: ["test/integration/**/*.test.ts"],
    setupFiles: ["test/integration/apply-migrations.ts"],
    globalSetup: ["test/integration/global-setup.ts"],
    silent: "passed-only",
    // Caps, not budgets: each file's first request loads the worker bundle into a fresh workerd,
    // which takes many seconds on a loaded 2-core machine (beforeAll hooks included).
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
