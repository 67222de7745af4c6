/**
 * The one health computation per symbol and date: the engine over the last `ANALYSIS_BARS` daily bars
 * up to that date, with the market's benchmark index (SH.000001 for A-shares, SIM.IDX1 for the
 * simulated market, US.SPX for US stocks; none for an index itself). The chat card (`analyze_stock`),
 * the chart page (`GET /api/market/bars/:symbol`) and the portfolio check all read it, so one symbol
 * and date get one score and one grade everywhere.
 */
import type { Bar } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { analyze, type AnalyzeOptions } from "../../engine/analyze";
import type { MarketData } from "../../ports/market-data";

/** Bars the analysis reads (MA200 plus a year of structure). */
export const ANALYSIS_BARS = 500;

/** The benchmark index of a symbol (null for an index). */
export function benchmarkId(s: SymbolInfo): string | null {
  if (s.kind === "index") return null;
  if (s.market === "SIM") return "SIM.IDX1";
  if (s.market === "CN") return "SH.000001";
  return "US.SPX";
}

/**
 * The benchmark's bars up to `asOf` (undefined when it has none). `pointInTime`: `asOf` may be long
 * past (a reading of history), so the bars are asked for up to it rather than the latest ones.
 */
export async function benchmarkBars(
  market: MarketData,
  s: SymbolInfo,
  asOf: string,
  pointInTime = false,
): Promise<Bar[] | undefined> {
  const id = benchmarkId(s);
  if (!id) return undefined;
  const r = await market.dailyBars(id, {
    days: ANALYSIS_BARS + 60,
    kind: "index",
    ...(pointInTime ? { end: asOf } : {}),
  });
  if (!r.ok) return undefined;
  const upTo = r.value.bars.filter((b) => b.date <= asOf);
  return upTo.length > 0 ? upTo.slice(-ANALYSIS_BARS) : undefined;
}

/** Engine options for a symbol: its market and board. */
export function engineOptionsOf(s: SymbolInfo): Pick<AnalyzeOptions, "symbol" | "market" | "board"> {
  return { symbol: s.id, market: s.market === "US" ? "US" : "CN", ...(s.board ? { board: s.board } : {}) };
}

/**
 * Analyzes `bars` (ascending; only the last ANALYSIS_BARS are read) of `symbol` with its benchmark;
 * `position` adds the position diagnosis, which never changes the health; `pointInTime` says the bars
 * end at a past date (the benchmark is read up to it).
 */
export async function analyzeSymbol(
  market: MarketData,
  symbol: SymbolInfo,
  bars: readonly Bar[],
  { position, pointInTime = false }: { position?: AnalyzeOptions["position"]; pointInTime?: boolean } = {},
): Promise<ReturnType<typeof analyze>> {
  const window = bars.slice(-ANALYSIS_BARS);
  const asOf = window[window.length - 1]?.date ?? "";
  const benchmark = await benchmarkBars(market, symbol, asOf, pointInTime);
  return analyze(window, {
    ...engineOptionsOf(symbol),
    ...(benchmark ? { benchmark } : {}),
    ...(position ? { position } : {}),
  });
}
