/** The worker's bindings plus those that exist only under test (see test/integration/vitest.config.ts). */
import { env, type D1Migration } from "cloudflare:test";

/** Test-only bindings. */
export interface TestBindings {
  TEST_MIGRATIONS: D1Migration[];
  LLM_BASE_URL: string;
  LLM_MODEL: string;
  LLM_API_KEY: string;
  LLM_FALLBACK_BASE_URL: string;
  LLM_FALLBACK_MODEL: string;
  LLM_IDLE_TIMEOUT_MS: string;
  MODEL_KEYS_SECRET: string;
  EASTMONEY_BASE_URL: string;
  TENCENT_BASE_URL: string;
  YAHOO_BASE_URL: string;
  SOAK_SCALE: "off" | "short" | "full";
}

/** `env` from cloudflare:test, typed with the test-only bindings. */
export const testEnv = env as typeof env & TestBindings;
