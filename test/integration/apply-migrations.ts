/** Applies the D1 migrations (read in vitest.config.ts) to each test file's isolated database. */
import { applyD1Migrations } from "cloudflare:test";
import { testEnv } from "./test-env";

await applyD1Migrations(testEnv.DB, testEnv.TEST_MIGRATIONS);
