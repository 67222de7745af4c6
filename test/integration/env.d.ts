/** Bindings that exist only under test (set in test/integration/vitest.config.ts). */
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    LLM_BASE_URL: string;
    LLM_MODEL: string;
    LLM_API_KEY: string;
    EASTMONEY_BASE_URL: string;
    TENCENT_BASE_URL: string;
    YAHOO_BASE_URL: string;
  }
}
