/**
 * Shared by the start and test scripts: the environment wrangler runs with offline (no metrics, no
 * Cloudflare look-ups, no banner) and the list of settings forwarded from the process environment.
 */

/** Environment variables that keep wrangler from touching the network. */
export const OFFLINE_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/** Every setting of CONTRACTS.md; a process env variable of this name reaches the worker. */
export const SETTINGS = [
  "LLM_BASE_URL",
  "LLM_API_KEY",
  "LLM_MODEL",
  "LLM_FALLBACK_BASE_URL",
  "LLM_FALLBACK_API_KEY",
  "LLM_FALLBACK_MODEL",
  "LLM_PROVIDER",
  "LLM_FALLBACK_PROVIDER",
  "MODEL_KEYS_SECRET",
  "LLM_CONTEXT_WINDOW",
  "LLM_PRICES",
  "LLM_IDLE_TIMEOUT_MS",
  "LLM_TURN_TIMEOUT_MS",
  "MARKET_DATA",
  "EASTMONEY_BASE_URL",
  "TENCENT_BASE_URL",
  "YAHOO_BASE_URL",
  "US_UNIVERSE",
  "AUTH_MODE",
  "WEBHOOK_SECRET",
  "DAILY_SCREENING",
  "ADMIN_TOKEN",
  "ACCESS_ISSUER",
  "ACCESS_AUD",
  "ACCESS_JWKS_URL",
  "CORS_ORIGINS",
  "RATE_LIMIT_TURNS_PER_HOUR",
  "RATE_LIMIT_TASKS_PER_HOUR",
  "MCP_ALLOW_WRITES",
  "AUDIT_KEY",
];
