/**
 * Ports for market data. `MarketData` is what tools and routes use (resolve, search, bars, snapshot,
 * each answer with provenance); `MarketDataProvider` is one upstream (Eastmoney, Tencent, Yahoo) the
 * edge chains per market; `MarketCache` is the D1 store of the universe and daily series.
 */
import type { Bar } from "../contracts/analysis";
import type {
  Adjustment,
  BarsAnswer,
  MarketCode,
  MinuteBar,
  MinuteBarsAnswer,
  QuoteRow,
  SearchAnswer,
  SecurityKind,
  SnapshotAnswer,
  SourceName,
  SymbolInfo,
} from "../contracts/market";
import type { BarColumns } from "../engine/series";
import type { Result } from "../lib/result";

/** Minute-bar intervals the providers serve. */
export type MinuteInterval = 1 | 5 | 15 | 30 | 60;

/** A resolved symbol, plus the other plausible readings of the input (empty when unambiguous). */
export interface Resolution {
  symbol: SymbolInfo;
  alternatives: SymbolInfo[];
}

/** Market data as the agent sees it. Failures are `Result` errors whose messages a model can relay. */
export interface MarketData {
  /** `offline`: bundled data only; `live`: providers first, bundled/cached data as last resort. */
  readonly mode: "offline" | "live";
  /**
   * Turns user input (`600519`, `sh000001`, `1.000001`, `AAPL`, `贵州茅台`, `SIM.0001`) into one symbol.
   * `kind` settles `000001`-style codes (index → SSE Composite, stock → Ping An Bank).
   * Ambiguous names answer `invalid_input` with `details.candidates`; unknown ones `not_found`.
   */
  resolve(input: string, hint?: { kind?: SecurityKind }): Promise<Result<Resolution>>;
  /** Symbols matching a code, name or pinyin initials (at most `limit`). */
  search(query: string, limit?: number): Promise<Result<SearchAnswer>>;
  /**
   * The last `days` daily bars (oldest first), adjusted as the provenance says. Live, a cached series
   * fetched within the freshness window is served as is; `fresherThan` (epoch ms) narrows that to
   * series written at or after it (the market sync refetches whatever it did not write itself).
   * `end` (YYYY-MM-DD): the last `days` bars on or before that date instead (point in time: the
   * market as it stood at that close); none there → `not_found` naming where the history starts.
   */
  dailyBars(
    input: string,
    opts: { days: number; kind?: SecurityKind; fresherThan?: number; end?: string },
  ): Promise<Result<BarsAnswer>>;
  /** Today's (or the latest session's) minute bars. */
  minuteBars(input: string, opts: { interval: MinuteInterval }): Promise<Result<MinuteBarsAnswer>>;
  /** One day's quotes for a whole market (breadth). */
  snapshot(market: MarketCode): Promise<Result<SnapshotAnswer>>;
  /** Cached daily bars of every stock of a market (no network): for breadth and screening. */
  universeBars(market: MarketCode, days: number): Promise<{ symbol: SymbolInfo; bars: Bar[] }[]>;
}

/** Daily bars as one provider returned them (units already normalised to shares / currency). */
export interface ProviderBars {
  bars: Bar[];
  adjust: Adjustment;
  /** Name the provider reported, if any. */
  name?: string;
  /** The listing the provider reported (Yahoo's chart meta), if any. */
  listing?: ProviderListing;
}

/** What a provider says a symbol is (Yahoo chart meta: name, listing venue, currency, type). */
export interface ProviderListing {
  /** The provider's ticker for it (`AAPL`). */
  ticker: string | null;
  name: string | null;
  /** Listing venue as the provider names it (`NasdaqGS`, `NYSE`). */
  venue: string | null;
  currency: string | null;
  kind: SecurityKind | null;
}

/**
 * The synced universe as the market-data service sees it (D1 adapter in storage/market-sync-repo.ts):
 * which symbols a completed market sync holds, and where a live fetch records what the provider said
 * a US symbol is.
 */
export interface SyncedUniverse {
  /** Ids of the market's synced, not delisted symbols; null when no sync of it ever completed. */
  members(market: "CN" | "US"): Promise<ReadonlySet<string> | null>;
  /** Records a provider's listing of a symbol (name, venue, currency, kind). */
  recordListing(symbolId: string, listing: ProviderListing, now: number): Promise<void>;
}

/** A query for daily bars. Dates are `YYYY-MM-DD`; `limit` = the last N bars up to `to`. */
export interface BarsQuery {
  from?: string;
  to?: string;
  limit?: number;
  adjust: "qfq" | "none";
}

/** One upstream. Each capability is optional; `supports` says which symbols it can serve. */
export interface MarketDataProvider {
  readonly name: SourceName;
  supports(symbol: SymbolInfo): boolean;
  dailyBars?(symbol: SymbolInfo, query: BarsQuery): Promise<Result<ProviderBars>>;
  minuteBars?(symbol: SymbolInfo, interval: MinuteInterval): Promise<Result<MinuteBar[]>>;
  search?(query: string, limit: number): Promise<Result<SymbolInfo[]>>;
  /** One page of the whole-market snapshot (1-based); `total` is the server's row count. */
  snapshotPage?(market: MarketCode, page: number): Promise<Result<{ rows: QuoteRow[]; total: number }>>;
}

/** A stored daily series. */
export interface CachedSeries {
  symbolId: string;
  bars: Bar[];
  adjust: Adjustment;
  origin: SourceName;
  /** Epoch ms of the last write. */
  fetchedAt: number;
  simulated: boolean;
}

/** A cached series decoded as columns (the screening and backtest read these: no per-bar objects). */
export interface CachedColumns {
  symbolId: string;
  columns: BarColumns;
}

/** The market cache (D1 adapter in storage/). */
export interface MarketCache {
  getSymbol(id: string): Promise<SymbolInfo | null>;
  /** Symbols whose code equals `code` (any exchange). */
  symbolsByCode(code: string): Promise<SymbolInfo[]>;
  /** Code prefix, name substring or pinyin prefix matches; exact code first. */
  searchSymbols(query: string, limit: number): Promise<SymbolInfo[]>;
  listSymbols(market: MarketCode, kind?: SecurityKind): Promise<SymbolInfo[]>;
  upsertSymbols(symbols: readonly SymbolInfo[], now: number): Promise<void>;
  getSeries(symbolId: string): Promise<CachedSeries | null>;
  /** Many series at once (missing ones omitted). */
  getSeriesMany(symbolIds: readonly string[]): Promise<CachedSeries[]>;
  /** Many series as columns, only the last `lastBars` bars decoded (missing ones omitted). */
  getColumnsMany(symbolIds: readonly string[], lastBars?: number): Promise<CachedColumns[]>;
  /**
   * Every cached series of a market's stocks, bars from `fromYear` on (no network); with `lastBars`,
   * only each series' last `lastBars` of those.
   */
  seriesOfMarket(market: MarketCode, fromYear: number, lastBars?: number): Promise<CachedSeries[]>;
  putSeries(series: CachedSeries): Promise<void>;
}
