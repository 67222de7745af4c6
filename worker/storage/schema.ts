/**
 * The D1 schema (drizzle): the only place tables are declared. `npm run db:generate` turns changes
 * into a new file under migrations/ (append-only once merged). The market tables are declared in
 * `market-schema.ts` and re-exported here, so this module stays the whole schema.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { MEMORY_TYPES, type MemorySource } from "../contracts/memory";

export {
  marketSymbols,
  marketSeries,
  marketBarChunks,
  marketSnapshots,
  marketSymbolGeneration,
  marketSyncRuns,
  marketSyncBatches,
  marketSyncFailures,
} from "./market-schema";

/** Index of chat sessions per owner; the messages themselves live in each session's Durable Object. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    title: text("title").notNull(),
    profile: text("profile"),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("sessions_owner_updated").on(t.ownerId, t.updatedAt)],
);

/** Background tasks (screening, backtests, reports): queued on Queues, reported back into sessions. */
export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    ownerId: text("owner_id").notNull(),
    sessionId: text("session_id"),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled"] }).notNull(),
    progressStage: text("progress_stage").notNull().default(""),
    progressDetail: text("progress_detail").notNull().default(""),
    progressPct: integer("progress_pct").notNull().default(0),
    input: text("input", { mode: "json" }),
    result: text("result", { mode: "json" }),
    resultRef: text("result_ref"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    idempotencyKey: text("idempotency_key").unique(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("tasks_owner_session").on(t.ownerId, t.sessionId, t.createdAt)],
);

/** API tokens of `AUTH_MODE=token`: only the SHA-256 of each token is kept (the token is shown once). */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    label: text("label").notNull().default(""),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by", { enum: ["admin", "user"] }).notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "number" }),
  },
  (t) => [index("api_tokens_user").on(t.userId, t.createdAt)],
);

/** Read-only share links of sessions: a capability token, kept as its SHA-256; revoking deletes the row. */
export const shares = sqliteTable(
  "shares",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    ownerId: text("owner_id").notNull(),
    sessionId: text("session_id").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }),
    /** The link also exposes the session's audit export (its creator ticked the box). */
    exposeAudit: integer("expose_audit", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("shares_owner").on(t.ownerId, t.createdAt)],
);

/** A user's portfolio account: free cash (one row per user). */
export const portfolioAccounts = sqliteTable("portfolio_accounts", {
  ownerId: text("owner_id").primaryKey(),
  freeCash: real("free_cash").notNull().default(0),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
});

/** Held positions, one per user and symbol (`code` is the universe's symbol id, e.g. `SH.600519`). */
export const portfolioPositions = sqliteTable(
  "portfolio_positions",
  {
    ownerId: text("owner_id").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    shares: real("shares").notNull(),
    cost: real("cost").notNull(),
    buyDate: text("buy_date"),
    stop: real("stop"),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.code] })],
);

/** The trade record of each portfolio change (add, update, remove, set_cash, import). */
export const portfolioTrades = sqliteTable(
  "portfolio_trades",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    action: text("action").notNull(),
    code: text("code"),
    name: text("name"),
    shares: real("shares"),
    price: real("price"),
    amount: real("amount"),
    note: text("note"),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [index("portfolio_trades_owner_at").on(t.ownerId, t.at)],
);

/** Fixed-window counters of the per-user rate limits (`key` = `<bucket>:<user>`, `window` = window start, ms). */
export const rateWindows = sqliteTable(
  "rate_windows",
  {
    key: text("key").notNull(),
    window: integer("window", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.window] })],
);

/**
 * L4 signals of screening runs and their cross-day tracking (pending → confirmed / expired): one row
 * per symbol, trigger type and signal day; later runs update the status.
 */
export const signals = sqliteTable(
  "signals",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    taskId: text("task_id").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    signalType: text("signal_type").notNull(),
    signalDate: text("signal_date").notNull(),
    status: text("status", { enum: ["pending", "confirmed", "expired"] }).notNull(),
    ttlDays: integer("ttl_days").notNull(),
    score: real("score").notNull().default(0),
    snapClose: real("snap_close").notNull(),
    regime: text("regime"),
    industry: text("industry"),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("signals_owner_date").on(t.ownerId, t.signalDate)],
);

/** Symbols a screening run handed to a report (WyckoffAgent's recommendations), with the price then. */
export const recommendations = sqliteTable(
  "recommendations",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    taskId: text("task_id").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    recommendDate: text("recommend_date").notNull(),
    recommendPrice: real("recommend_price").notNull(),
    camp: text("camp"),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("recommendations_owner_date").on(t.ownerId, t.recommendDate)],
);

/** Model usage per owner, UTC day, model and purpose (for `GET /api/usage`): each model call counted once. */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    ownerId: text("owner_id").notNull(),
    day: text("day").notNull(),
    model: text("model").notNull(),
    /** What the calls were for: turn, subagent, report, summary, memory (see runtime/usage.ts). */
    purpose: text("purpose").notNull().default("turn"),
    /** Model calls (purpose `turn`: turns) counted in this row. */
    turns: integer("turns").notNull().default(0),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cacheReadTokens: integer("cache_read_tokens").notNull().default(0),
    cacheWriteTokens: integer("cache_write_tokens").notNull().default(0),
    costMicros: integer("cost_micros").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.day, t.model, t.purpose] })],
);

/** A user's own skills (markdown with front matter); built-ins live in code. */
export const userSkills = sqliteTable(
  "user_skills",
  {
    ownerId: text("owner_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.name] })],
);

/** Scenario hints added to the dynamic part of the prompt when their keywords appear (≤ 3 per turn). */
export const promptHints = sqliteTable(
  "prompt_hints",
  {
    id: text("id").primaryKey(),
    /** `*` for the shipped hints every user gets; else the owner's id. */
    ownerId: text("owner_id").notNull(),
    keywords: text("keywords").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("prompt_hints_owner").on(t.ownerId)],
);

/**
 * Long-term memory, one row per memory of one owner. `keywords` and `codes` are stored
 * space-padded (` 回踩 突破 `) so a 2-character keyword is a ≥3-character phrase for the trigram FTS
 * table `memories_fts` (custom migration, kept in sync by triggers on `seq`). `source_ref` names the
 * session and messages the memory came from.
 */
export const memories = sqliteTable(
  "memories",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    ownerId: text("owner_id").notNull(),
    type: text("type", { enum: MEMORY_TYPES }).notNull(),
    content: text("content").notNull(),
    keywords: text("keywords").notNull().default(""),
    codes: text("codes").notNull().default(""),
    relevance: real("relevance").notNull().default(1),
    origin: text("origin", { enum: ["rule", "model", "flush", "user"] }).notNull(),
    sourceRef: text("source_ref", { mode: "json" }).$type<MemorySource>().notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
    lastHitAt: integer("last_hit_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("memories_owner_dedupe").on(t.ownerId, t.type, t.content, t.codes),
    index("memories_owner_type_updated").on(t.ownerId, t.type, t.updatedAt),
  ],
);

/**
 * A deleted session's audit tombstone: the head hash and length of its chain when it was deleted, so a
 * deletion is visible and an earlier export can still be compared with what existed.
 */
export const auditTombstones = sqliteTable(
  "audit_tombstones",
  {
    sessionId: text("session_id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    headHash: text("head_hash").notNull(),
    entries: integer("entries").notNull(),
    signed: integer("signed", { mode: "boolean" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "number" }).notNull(),
  },
  (t) => [index("audit_tombstones_owner").on(t.ownerId, t.deletedAt)],
);

/**
 * A user's own model (Settings → Model), one row per user. API keys are AES-GCM ciphertexts
 * (`v1.<iv>.<ciphertext>`, base64url, a fresh IV per write, the user id as associated data) under a
 * key derived from `MODEL_KEYS_SECRET`; `*_key_hint` keeps the last four characters for display.
 */
export const userModelSettings = sqliteTable("user_model_settings", {
  ownerId: text("owner_id").primaryKey(),
  baseUrl: text("base_url").notNull(),
  model: text("model").notNull(),
  provider: text("provider", { enum: ["openai-compatible", "anthropic"] }),
  apiKey: text("api_key"),
  apiKeyHint: text("api_key_hint"),
  fallbackBaseUrl: text("fallback_base_url"),
  fallbackModel: text("fallback_model"),
  fallbackProvider: text("fallback_provider", { enum: ["openai-compatible", "anthropic"] }),
  fallbackApiKey: text("fallback_api_key"),
  fallbackApiKeyHint: text("fallback_api_key_hint"),
  contextWindow: integer("context_window", { mode: "number" }),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
});

/** Tail-buy decisions (background/tail-buy.ts): the 14:30 intraday read of an owner's latest recommendations. */
export const tailBuys = sqliteTable(
  "tail_buys",
  {
    ownerId: text("owner_id").notNull(),
    runDate: text("run_date").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    decision: text("decision", { enum: ["BUY", "WATCH", "SKIP"] }).notNull(),
    score: real("score").notNull(),
    classification: text("classification").notNull(),
    reason: text("reason").notNull(),
    price: real("price").notNull(),
    vwap: real("vwap"),
    simulated: integer("simulated", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.runDate, t.code] }),
    index("tail_buys_owner_date").on(t.ownerId, t.runDate),
  ],
);
