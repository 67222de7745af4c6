/**
 * Ports of the market sync (market/sync): the whole-market list a provider pages out (Eastmoney
 * clist with industry, ST, listing date, caps and the day's bar) and the D1 store of runs, batches,
 * failures and the universe itself.
 */
import type { Bar, Board } from "../contracts/analysis";
import type { Exchange } from "../contracts/market";
import type { SyncCoverage, SyncFailure } from "../contracts/market-sync";
import type { Result } from "../lib/result";

/** One row of the whole-market list. */
export interface UniverseRow {
  id: string;
  code: string;
  exchange: Exchange;
  name: string;
  board: Board;
  industry: string | null;
  st: boolean;
  /** `YYYY-MM-DD` or null when the provider does not say. */
  listedOn: string | null;
  totalCap: number | null;
  floatCap: number | null;
  /** The row's trading date (`YYYY-MM-DD`), null when the provider does not say. */
  tradeDate: string | null;
  /** The day's bar; null when the stock did not trade (suspended, no quote). */
  bar: Bar | null;
  /** The provider's previous close (unadjusted). */
  prevClose: number | null;
}

/** One symbol of the US universe list (market/parse/us-universe-list.ts). */
export interface UsListEntry {
  /** Yahoo's ticker (`AAPL`, `BRK-B`). */
  ticker: string;
  /** The list's name, if it gives one (Yahoo's name replaces it once resolved). */
  name: string | null;
  /** The list's industry or sector, if it gives one. */
  industry: string | null;
}

/** Pages of the whole-market list (1-based). */
export interface UniverseFeed {
  readonly pageSize: number;
  page(n: number): Promise<Result<{ rows: UniverseRow[]; total: number }>>;
}

/** A run as stored. */
export interface SyncRun {
  id: string;
  market: "CN" | "US";
  status: "running" | "done" | "failed";
  asOf: string | null;
  universe: number;
  delisted: number;
  batchesTotal: number;
  batchesDone: number;
  appended: number;
  fetched: number;
  skipped: number;
  failed: number;
  requests: number;
  listRequests: number;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

/** An append item: the day's bar for a symbol whose stored series ends the trading day before. */
export interface AppendItem {
  id: string;
  bar: Bar;
}

/** A unit of work. */
export type SyncBatchItems = { mode: "append"; items: AppendItem[] } | { mode: "fetch"; items: string[] };

/** A stored batch. */
export type SyncBatch = SyncBatchItems & { runId: string; batch: number; state: "pending" | "done" };

/** The end of a stored series (what the planner compares the day's row with). */
export interface SeriesHead {
  lastDate: string;
  barCount: number;
  lastClose: number;
}

/** What a finished batch reports. */
export interface BatchOutcome {
  appended: number;
  fetched: number;
  failures: { symbolId: string; reason: string }[];
  /** Symbols that synced (their failure rows are cleared). */
  succeeded: string[];
  /** Symbols the provider does not know (US: delisted or renamed tickers); they leave the universe. */
  notFound?: string[];
  requests: number;
}

/** The D1 store of the sync. */
export interface SyncStore {
  /** The newest run of a market that is still running, if any. */
  runningRun(market: "CN" | "US"): Promise<SyncRun | null>;
  latestRun(market: "CN" | "US"): Promise<SyncRun | null>;
  run(id: string): Promise<SyncRun | null>;
  lastCompletedRun(market: "CN" | "US"): Promise<SyncRun | null>;
  createRun(run: SyncRun): Promise<void>;
  updateRun(id: string, patch: Partial<Omit<SyncRun, "id" | "market">>): Promise<void>;
  /** Upserts a page of the list (name, board, industry, ST, listing date, caps; `lastSeen` = `seenOn`). */
  upsertUniverse(rows: readonly UniverseRow[], seenOn: string, now: number): Promise<void>;
  /** Upserts the US list (new symbols listed under the list's name; `lastSeen` = `seenOn`). */
  upsertUsUniverse(entries: readonly UsListEntry[], seenOn: string, now: number): Promise<void>;
  /**
   * US symbols an earlier list had and this one lacks leave the universe (delisted); answers how
   * many. A ticker never on a list (someone analyzed it) is left alone: the US list is a chosen
   * universe, not the whole market.
   */
  markOffUsList(tickers: readonly string[], now: number): Promise<number>;
  /** Listed stocks of the market the list did not have on `seenOn` become delisted; answers how many. */
  markUnseenDelisted(market: "CN" | "US", seenOn: string, now: number): Promise<number>;
  /** Stored series ends by symbol (missing symbols omitted). */
  seriesHeads(ids: readonly string[]): Promise<Map<string, SeriesHead>>;
  /** Symbols whose last sync failed. */
  failedSymbols(): Promise<Set<string>>;
  /** Adds a run's batches (existing ones are kept as they are). */
  addBatches(runId: string, batches: readonly (SyncBatchItems & { batch: number })[], now: number): Promise<void>;
  batch(runId: string, batch: number): Promise<SyncBatch | null>;
  pendingBatches(runId: string): Promise<number[]>;
  /** Appends (or replaces, same date) the day's bar of each series; answers how many were written. */
  appendBars(items: readonly AppendItem[], now: number): Promise<number>;
  /**
   * Marks a batch done with its outcome, once: a batch already done changes nothing. Recounts the
   * run's totals from its batches and answers the run as it now stands.
   */
  completeBatch(runId: string, batch: number, outcome: BatchOutcome, now: number): Promise<SyncRun | null>;
  coverage(market: "CN" | "US", asOf: string | null): Promise<SyncCoverage>;
  failures(limit: number, market: "CN" | "US"): Promise<{ list: SyncFailure[]; total: number }>;
  /** Ids of the market's synced (seen by a list), not delisted symbols. */
  members(market: "CN" | "US"): Promise<Set<string>>;
  /** The most common last stored date of the market's synced stocks (the US run's as-of date). */
  commonLastDate(market: "CN" | "US"): Promise<string | null>;
  storage(market: "CN" | "US"): Promise<{ symbols: number; bytes: number }>;
}
