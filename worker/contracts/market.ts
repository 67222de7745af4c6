/**
 * Market-data shapes shared by the market routes, the analysis tools and the web: symbols, where an
 * answer came from (source, adjustment, units, as-of, stale/simulated flags), bars and snapshots.
 */
import { z } from "zod";
import { Analysis, Bar, BarDate, Board } from "./analysis";

/** Markets a symbol can belong to. `SIM` is the bundled simulated A-share market: never real. */
export const MarketCode = z.enum(["CN", "US", "SIM"]);
export type MarketCode = z.infer<typeof MarketCode>;

/** Exchange part of a symbol id (`SH.600519`, `SZ.000001`, `US.AAPL`, `SIM.0001`). */
export const Exchange = z.enum(["SH", "SZ", "BJ", "US", "SIM"]);
export type Exchange = z.infer<typeof Exchange>;

/** What a symbol is. `000001` is a stock on SZ (Ping An Bank) and an index on SH (SSE Composite). */
export const SecurityKind = z.enum(["stock", "index", "etf"]);
export type SecurityKind = z.infer<typeof SecurityKind>;

/** Canonical symbol id `<EXCHANGE>.<CODE>`. */
export const SymbolId = z.string().regex(/^(SH|SZ|BJ|US|SIM)\.[A-Z0-9^.-]{1,16}$/, "symbol id must be like SH.600519");
export type SymbolId = z.infer<typeof SymbolId>;

/** One entry of the symbol universe. */
export const SymbolInfo = z.object({
  id: SymbolId,
  market: MarketCode,
  exchange: Exchange,
  code: z.string(),
  name: z.string(),
  /** Pinyin initials of the Chinese name, upper case (贵州茅台 → GZMT); empty when unknown. */
  pinyin: z.string(),
  kind: SecurityKind,
  board: Board.nullable(),
  industry: z.string().nullable(),
  status: z.enum(["listed", "suspended", "delisted"]),
  currency: z.enum(["CNY", "USD"]),
  /** True for the bundled simulated market: results built on it are not real market data. */
  simulated: z.boolean(),
});
export type SymbolInfo = z.infer<typeof SymbolInfo>;

/** Who answered. `offline` is the bundled data (real S&P 500 series or the simulated market). */
export const SourceName = z.enum(["eastmoney", "tencent", "yahoo", "cache", "offline"]);
export type SourceName = z.infer<typeof SourceName>;

/** Price adjustment of a series. `split_dividend` = Yahoo adjclose applied to OHLC. */
export const Adjustment = z.enum(["none", "qfq", "hfq", "split_dividend"]);
export type Adjustment = z.infer<typeof Adjustment>;

/** One provider tried on the way to an answer. */
export const SourceAttempt = z.object({
  source: SourceName,
  outcome: z.enum(["ok", "failed", "skipped"]),
  message: z.string().optional(),
});
export type SourceAttempt = z.infer<typeof SourceAttempt>;

/** Where an answer came from and how much to trust it. Every market answer carries one. */
export const Provenance = z.object({
  source: SourceName,
  /** The provider that originally produced the data (differs from `source` for cached data). */
  origin: SourceName,
  /** Date (or minute `YYYY-MM-DD HH:MM`) of the latest data point used. */
  asOf: z.string().nullable(),
  /** When the data was fetched or loaded (ISO time). */
  fetchedAt: z.string(),
  adjust: Adjustment,
  volumeUnit: z.literal("shares"),
  currency: z.enum(["CNY", "USD"]),
  simulated: z.boolean(),
  /** True when fresher data should exist but could not be had (providers down, offline mode). */
  stale: z.boolean(),
  notes: z.array(z.string()),
  attempts: z.array(SourceAttempt),
});
export type Provenance = z.infer<typeof Provenance>;

/** Daily bars of one symbol with provenance. */
export const BarsAnswer = z.object({ symbol: SymbolInfo, bars: z.array(Bar), provenance: Provenance });
export type BarsAnswer = z.infer<typeof BarsAnswer>;

/** One intraday bar; `time` is exchange-local `YYYY-MM-DD HH:MM`, volume in shares. */
export const MinuteBar = z.object({
  time: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  amount: z.number().optional(),
});
export type MinuteBar = z.infer<typeof MinuteBar>;

/** Intraday bars of one symbol with provenance. */
export const MinuteBarsAnswer = z.object({
  symbol: SymbolInfo,
  interval: z.number().int(),
  bars: z.array(MinuteBar),
  provenance: Provenance,
});
export type MinuteBarsAnswer = z.infer<typeof MinuteBarsAnswer>;

/** One row of a whole-market snapshot (one trading day). */
export const QuoteRow = z.object({
  id: SymbolId,
  code: z.string(),
  name: z.string(),
  price: z.number().nullable(),
  changePct: z.number().nullable(),
  open: z.number().nullable(),
  high: z.number().nullable(),
  low: z.number().nullable(),
  prevClose: z.number().nullable(),
  volume: z.number().nullable(),
  amount: z.number().nullable(),
  turnoverPct: z.number().nullable(),
  marketCap: z.number().nullable(),
});
export type QuoteRow = z.infer<typeof QuoteRow>;

/** Search results. */
export const SearchAnswer = z.object({
  query: z.string(),
  results: z.array(SymbolInfo),
  provenance: Provenance,
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;

/** Whole-market snapshot; `complete` is false when pages were missing (page cap, failures). */
export const SnapshotAnswer = z.object({
  market: MarketCode,
  date: BarDate.nullable(),
  rows: z.array(QuoteRow),
  complete: z.boolean(),
  provenance: Provenance,
});
export type SnapshotAnswer = z.infer<typeof SnapshotAnswer>;

/** `GET /api/market/search?q=`. */
export const MarketSearchResponse = SearchAnswer;
export type MarketSearchResponse = z.infer<typeof MarketSearchResponse>;

/** `GET /api/market/bars/:symbol?days=N`: bars for charts plus the engine's reading (null when too few bars). */
export const MarketBarsResponse = BarsAnswer.extend({
  analysis: Analysis.nullable(),
  analysisNote: z.string().optional(),
});
export type MarketBarsResponse = z.infer<typeof MarketBarsResponse>;
