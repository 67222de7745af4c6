/** Applies the D1 migrations (read in vitest.config.ts) to each test file's isolated database. */
import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
