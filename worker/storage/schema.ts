/**
 * The D1 schema (drizzle): the only place tables are declared. `npm run db:generate` turns changes
 * into a new file under migrations/ (append-only once merged).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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

/** Market symbol universe: real symbols seen from providers, the S&P 500, and the simulated market. */
export const marketSymbols = sqliteTable(
  "market_symbols",
  {
    id: text("id").primaryKey(),
    market: text("market", { enum: ["CN", "US", "SIM"] }).notNull(),
    exchange: text("exchange", { enum: ["SH", "SZ", "BJ", "US", "SIM"] }).notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    pinyin: text("pinyin").notNull().default(""),
    kind: text("kind", { enum: ["stock", "index", "etf"] }).notNull(),
    board: text("board", { enum: ["main", "chinext", "star", "bse"] }),
    industry: text("industry"),
    status: text("status", { enum: ["listed", "suspended", "delisted"] })
      .notNull()
      .default("listed"),
    currency: text("currency", { enum: ["CNY", "USD"] }).notNull(),
    simulated: integer("simulated", { mode: "boolean" }).notNull().default(false),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("market_symbols_code").on(t.code),
    index("market_symbols_pinyin").on(t.pinyin),
    index("market_symbols_market_kind").on(t.market, t.kind),
  ],
);

/** One cached daily series per symbol: where it came from, its adjustment and its extent. */
export const marketSeries = sqliteTable("market_series", {
  symbolId: text("symbol_id").primaryKey(),
  adjust: text("adjust", { enum: ["none", "qfq", "hfq", "split_dividend"] }).notNull(),
  origin: text("origin", { enum: ["eastmoney", "tencent", "yahoo", "cache", "offline"] }).notNull(),
  firstDate: text("first_date").notNull(),
  lastDate: text("last_date").notNull(),
  barCount: integer("bar_count").notNull(),
  simulated: integer("simulated", { mode: "boolean" }).notNull().default(false),
  fetchedAt: integer("fetched_at", { mode: "number" }).notNull(),
});

/**
 * The bars of a series, one row per calendar year (columnar JSON `{d,o,h,l,c,v,a?}`): rows stay far
 * below D1's statement and value limits, an incremental update rewrites only the current year, and a
 * universe read is one query.
 */
export const marketBarChunks = sqliteTable(
  "market_bar_chunks",
  {
    symbolId: text("symbol_id").notNull(),
    year: integer("year").notNull(),
    bars: text("bars").notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbolId, t.year] })],
);
