/**
 * The D1 schema's market tables (drizzle): the symbol universe, cached series and their yearly bar
 * chunks, the whole-market snapshots and their generations, and the market sync's runs, batches and
 * failures. `schema.ts` re-exports them, so the schema drizzle and `npm run db:generate` read is one.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
    /** Universe sync (market/sync): ST flag, listing date, caps (CNY) and the last trading date the list had it. */
    st: integer("st", { mode: "boolean" }).notNull().default(false),
    listedOn: text("listed_on"),
    totalCap: real("total_cap"),
    floatCap: real("float_cap"),
    lastSeen: text("last_seen"),
    /** US universe sync: the listing venue Yahoo names (`NasdaqGS`, `NYSE`). */
    venue: text("venue"),
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
 * The bars of a series, one row per calendar year (lib/bar-chunks.ts: v2 scaled-varint columns, or v1
 * columnar JSON `{d,o,h,l,c,v,a?}` in rows written before — both read): rows stay far
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

/**
 * The whole-market snapshot of each market (lib/market-snapshot.ts; the object in R2 under `key`).
 * `generation` counts writes to the market's stored bars (triggers on market_bar_chunks and
 * market_symbols, migrations 0020/0021); `membership` counts only changes of which stocks the market
 * holds. A snapshot is served while `built_membership` equals `membership`; the symbols written since
 * its `built_generation` (market_symbol_generation) are read from the chunks, never stale bars.
 */
export const marketSnapshots = sqliteTable("market_snapshots", {
  market: text("market").primaryKey(),
  generation: integer("generation").notNull().default(0),
  builtGeneration: integer("built_generation"),
  key: text("key"),
  runId: text("run_id"),
  asOf: text("as_of"),
  bytes: integer("bytes"),
  series: integer("series"),
  builtAt: integer("built_at", { mode: "number" }),
  membership: integer("membership").notNull().default(0),
  builtMembership: integer("built_membership"),
});

/**
 * The store generation of each symbol's last bars write (set by the market_bar_chunks triggers,
 * migration 0021): a snapshot built at generation G is stale exactly for the symbols whose row is > G.
 */
export const marketSymbolGeneration = sqliteTable(
  "market_symbol_generation",
  {
    symbolId: text("symbol_id").primaryKey(),
    market: text("market").notNull(),
    generation: integer("generation").notNull(),
  },
  (t) => [index("market_symbol_generation_market_gen").on(t.market, t.generation)],
);

/**
 * Market sync runs (market/sync): one row per run of the after-close universe + daily-bars sync, with
 * its counters; `status` moves running → done | failed. A run killed midway is resumed by the next start.
 */
export const marketSyncRuns = sqliteTable(
  "market_sync_runs",
  {
    id: text("id").primaryKey(),
    market: text("market", { enum: ["CN", "US"] }).notNull(),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    /** The trading date the run brings the store up to (the list's latest trade date). */
    asOf: text("as_of"),
    universe: integer("universe").notNull().default(0),
    listed: integer("listed").notNull().default(0),
    delisted: integer("delisted").notNull().default(0),
    batchesTotal: integer("batches_total").notNull().default(0),
    batchesDone: integer("batches_done").notNull().default(0),
    appended: integer("appended").notNull().default(0),
    fetched: integer("fetched").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    requests: integer("requests").notNull().default(0),
    /** Requests of the list pass (pages, retries included); `requests` adds the batches' fetches. */
    listRequests: integer("list_requests").notNull().default(0),
    error: text("error"),
    startedAt: integer("started_at", { mode: "number" }).notNull(),
    finishedAt: integer("finished_at", { mode: "number" }),
  },
  (t) => [index("market_sync_runs_market_started").on(t.market, t.startedAt)],
);

/** The work items of a run: a batch of symbols to append (with the day's rows) or to refetch. */
export const marketSyncBatches = sqliteTable(
  "market_sync_batches",
  {
    runId: text("run_id").notNull(),
    batch: integer("batch").notNull(),
    mode: text("mode", { enum: ["append", "fetch"] }).notNull(),
    /** JSON: symbol ids (fetch) or `{ id, bar, prevClose }` rows (append); bounded by the batch size. */
    items: text("items").notNull(),
    state: text("state", { enum: ["pending", "done"] }).notNull(),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    requests: integer("requests").notNull().default(0),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.batch] })],
);

/** Symbols whose last sync failed (cleared when one succeeds): listed in the status, refetched first next run. */
export const marketSyncFailures = sqliteTable(
  "market_sync_failures",
  {
    symbolId: text("symbol_id").primaryKey(),
    runId: text("run_id").notNull(),
    reason: text("reason").notNull(),
    failures: integer("failures").notNull().default(1),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [index("market_sync_failures_at").on(t.at)],
);
