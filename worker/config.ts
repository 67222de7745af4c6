/**
 * Settings (CONTRACTS.md "Settings"): the only reader of the worker's vars and secrets. Parsed once
 * per isolate with zod; everything below the edge ring receives the typed `Config`, never `env`.
 */
import { z } from "zod";
import { AppError } from "./lib/app-error";

/** Empty strings (e.g. `LLM_BASE_URL=` in .dev.vars) mean "unset". */
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());
const urlWithDefault = (fallback: string) =>
  z.preprocess((v) => (v === "" || v === undefined ? fallback : v), z.url()).transform((u) => u.replace(/\/+$/, ""));

/** A non-negative integer setting (0 = unlimited where it is a limit). */
const countWithDefault = (fallback: number) =>
  z.preprocess((v) => (v === "" || v === undefined ? String(fallback) : v), z.coerce.number().int().min(0));

/** Prices per 1M tokens (USD) by model id; `*` applies to models not listed. */
const Prices = z.record(
  z.string(),
  z
    .object({
      input: z.number().nonnegative(),
      output: z.number().nonnegative(),
      cacheRead: z.number().nonnegative().optional(),
      cacheWrite: z.number().nonnegative().optional(),
    })
    .strict(),
);

const Settings = z.object({
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_FALLBACK_BASE_URL: optionalUrl,
  LLM_FALLBACK_API_KEY: optionalString,
  LLM_FALLBACK_MODEL: optionalString,
  LLM_PROVIDER: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["openai-compatible", "anthropic"]).optional()),
  LLM_FALLBACK_PROVIDER: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["openai-compatible", "anthropic"]).optional(),
  ),
  /** Checked where it is used (the model settings routes), so a bad value never breaks other routes. */
  MODEL_KEYS_SECRET: optionalString,
  LLM_CONTEXT_WINDOW: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional()),
  LLM_PRICES: z.preprocess((v) => {
    if (v === "" || v === undefined) return {};
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return "not JSON";
    }
  }, Prices),
  LLM_IDLE_TIMEOUT_MS: z.preprocess(
    (v) => (v === "" || v === undefined ? "60000" : v),
    z.coerce.number().int().min(100),
  ),
  LLM_TURN_TIMEOUT_MS: z.preprocess(
    (v) => (v === "" || v === undefined ? "600000" : v),
    z.coerce.number().int().min(1000),
  ),
  MARKET_DATA: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["offline", "live"]).default("offline")),
  EASTMONEY_BASE_URL: urlWithDefault("https://push2his.eastmoney.com"),
  TENCENT_BASE_URL: urlWithDefault("https://web.ifzq.gtimg.cn"),
  YAHOO_BASE_URL: urlWithDefault("https://query1.finance.yahoo.com"),
  AUTH_MODE: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["local", "token", "access"]).default("local")),
  WEBHOOK_SECRET: optionalString,
  US_UNIVERSE: optionalString,
  DAILY_SCREENING: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["off", "cn", "us"]).default("off")),
  ADMIN_TOKEN: optionalString,
  ACCESS_ISSUER: optionalUrl,
  ACCESS_AUD: optionalString,
  ACCESS_JWKS_URL: optionalUrl,
  CORS_ORIGINS: optionalString,
  RATE_LIMIT_TURNS_PER_HOUR: countWithDefault(120),
  RATE_LIMIT_TASKS_PER_HOUR: countWithDefault(30),
  MCP_ALLOW_WRITES: z.preprocess((v) => (v === "" || v === undefined ? "false" : v), z.enum(["true", "false"])),
  AUDIT_KEY: optionalString,
});

/** One model endpoint: OpenAI-compatible, or Anthropic's Messages API. */
export interface ModelEndpoint {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  /** Absent → inferred from the base URL (`api.anthropic.com` → Anthropic). */
  provider?: "openai-compatible" | "anthropic" | undefined;
}

/** The typed settings every handler receives. */
export interface Config {
  /** Primary model; `undefined` means the offline rule model answers. */
  model: ModelEndpoint | undefined;
  fallbackModel: ModelEndpoint | undefined;
  contextWindowOverride: number | undefined;
  /** Prices per 1M tokens (USD) by model id (`*` = any other model). */
  prices: z.infer<typeof Prices>;
  /** No chunk from the model for this long ends the round (`LLM_IDLE_TIMEOUT_MS`, default 60 s). */
  idleTimeoutMs: number;
  /** Whole-turn budget, working time only (`LLM_TURN_TIMEOUT_MS`, default 600 s). */
  turnTimeoutMs: number;
  marketData: "offline" | "live";
  providers: { eastmoney: string; tencent: string; yahoo: string };
  /** The US universe the market sync keeps (`US_UNIVERSE`; null = the bundled S&P 500 list). */
  usUniverse: string | null;
  authMode: "local" | "token" | "access";
  webhookSecret: string | undefined;
  /** Market of the post-close daily screening (Cron Trigger), or off. */
  dailyScreening: "off" | "cn" | "us";
  adminToken: string | undefined;
  /** Cloudflare Access (AUTH_MODE=access): the team domain as JWT issuer, the application's audience tag, its key set. */
  access: { issuer: string; audience: string; jwksUrl: string } | undefined;
  /** Origins other than the app's own allowed to call the API from a browser (CORS); empty = none. */
  corsOrigins: string[];
  /** Per-user fixed-window limits (per hour; 0 = unlimited). */
  rateLimits: { turnsPerHour: number; tasksPerHour: number };
  /** MCP clients may call tools that change user data (`readOnly: false`). */
  mcpAllowWrites: boolean;
  /** Key material for users' saved model API keys (AES-GCM); validated by the settings routes. */
  modelKeysSecret: string | undefined;
  /** Ed25519 private key (PKCS#8, base64) that signs audit entries; unset → entries chained, unsigned. */
  auditKey: string | undefined;
}

/** The model id reported when no model is configured. */
export const OFFLINE_MODEL_ID = "offline-rules";

function endpoint(
  baseURL: string | undefined,
  apiKey: string | undefined,
  model: string | undefined,
  provider: ModelEndpoint["provider"],
): ModelEndpoint | undefined {
  return baseURL ? { baseURL, apiKey, model: model ?? "default", ...(provider ? { provider } : {}) } : undefined;
}

/**
 * Parses the worker's vars/secrets. A bad setting is the operator's error, not the client's:
 * it surfaces as a 500 `internal` naming the setting (never its value).
 */
export function loadConfig(env: object): Config {
  const parsed = Settings.safeParse(env);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))].join(", ");
    throw new AppError("internal", 500, `server misconfigured: invalid setting ${names}`);
  }
  const s = parsed.data;
  if (s.AUTH_MODE === "access" && (!s.ACCESS_ISSUER || !s.ACCESS_AUD)) {
    throw new AppError("internal", 500, "server misconfigured: AUTH_MODE=access needs ACCESS_ISSUER and ACCESS_AUD");
  }
  const issuer = s.ACCESS_ISSUER?.replace(/\/+$/, "");
  return {
    model: endpoint(s.LLM_BASE_URL, s.LLM_API_KEY, s.LLM_MODEL, s.LLM_PROVIDER),
    fallbackModel: endpoint(
      s.LLM_FALLBACK_BASE_URL,
      s.LLM_FALLBACK_API_KEY,
      s.LLM_FALLBACK_MODEL,
      s.LLM_FALLBACK_PROVIDER,
    ),
    contextWindowOverride: s.LLM_CONTEXT_WINDOW,
    prices: s.LLM_PRICES,
    idleTimeoutMs: s.LLM_IDLE_TIMEOUT_MS,
    turnTimeoutMs: s.LLM_TURN_TIMEOUT_MS,
    marketData: s.MARKET_DATA,
    providers: { eastmoney: s.EASTMONEY_BASE_URL, tencent: s.TENCENT_BASE_URL, yahoo: s.YAHOO_BASE_URL },
    usUniverse: s.US_UNIVERSE ?? null,
    authMode: s.AUTH_MODE,
    webhookSecret: s.WEBHOOK_SECRET,
    dailyScreening: s.DAILY_SCREENING,
    adminToken: s.ADMIN_TOKEN,
    access:
      issuer && s.ACCESS_AUD
        ? { issuer, audience: s.ACCESS_AUD, jwksUrl: s.ACCESS_JWKS_URL ?? `${issuer}/cdn-cgi/access/certs` }
        : undefined,
    corsOrigins: (s.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter((o) => o !== ""),
    rateLimits: { turnsPerHour: s.RATE_LIMIT_TURNS_PER_HOUR, tasksPerHour: s.RATE_LIMIT_TASKS_PER_HOUR },
    mcpAllowWrites: s.MCP_ALLOW_WRITES === "true",
    modelKeysSecret: s.MODEL_KEYS_SECRET,
    auditKey: s.AUDIT_KEY,
  };
}
