/**
 * Handler of `analyze_stock`: `price` mode returns recent bars; `diagnose` runs the engine over up to
 * 500 bars with the market's benchmark index (symbol-analysis.ts: the one health computation) and, given a cost, the position
 * diagnosis. The source block says where the bars came from.
 */
import type { Bar } from "../../contracts/analysis";
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { analyzeStockSpec } from "../specs/analyze-stock";
import { brief, pctChange, priceRows } from "../pure/market-stats";
import { analyzeSymbol, ANALYSIS_BARS } from "./symbol-analysis";

function stats(bars: readonly Bar[]) {
  const last = bars[bars.length - 1];
  const back = (n: number): number | null => {
    const b = bars[bars.length - 1 - n];
    return b && last ? pctChange(b.close, last.close) : null;
  };
  const year = bars.slice(-250);
  const hi = Math.max(...year.map((b) => b.high));
  const lo = Math.min(...year.map((b) => b.low));
  const w60 = bars.slice(-60);
  const hi60 = Math.max(...w60.map((b) => b.high));
  const lo60 = Math.min(...w60.map((b) => b.low));
  const avg = (xs: readonly Bar[]): number => xs.reduce((a, b) => a + b.volume, 0) / Math.max(1, xs.length);
  const v60 = avg(bars.slice(-60));
  return {
    ret10dPct: back(10),
    ret20dPct: back(20),
    fromYearHighPct: last ? pctChange(hi, last.close) : null,
    fromYearLowPct: last ? pctChange(lo, last.close) : null,
    range60dPct: lo60 > 0 ? pctChange(lo60, hi60) : null,
    volRatio20to60: v60 > 0 ? Math.round((avg(bars.slice(-20)) / v60) * 100) / 100 : null,
  };
}

/** Analyzes one symbol through the MarketData port and the engine. */
export const analyzeStockHandler: ToolHandler<typeof analyzeStockSpec> = async (input, deps) => {
  const days = input.mode === "price" ? input.days + 1 : ANALYSIS_BARS;
  const r = await deps.market.dailyBars(input.code, input.asOf ? { days, end: input.asOf } : { days });
  if (!r.ok) return r;
  const { symbol, bars, provenance } = r.value;
  const last = bars[bars.length - 1];
  if (!last) return { ok: false, error: { code: "insufficient_data", message: `no bars for ${symbol.id}` } };
  const base = {
    mode: input.mode,
    symbol: brief(symbol),
    latestClose: last.close,
    latestDate: last.date,
    ...(input.asOf ? { asOf: input.asOf } : {}),
    source: provenance,
  };
  if (input.mode === "price") {
    const window = bars.slice(-input.days);
    return ok({ ...base, data: priceRows(window, bars[bars.length - window.length - 1]) });
  }
  const result = await analyzeSymbol(deps.market, symbol, bars, {
    ...(input.cost > 0 ? { position: { cost: input.cost } } : {}),
    pointInTime: input.asOf !== undefined,
  });
  if (!result.ok) return ok({ ...base, analysis: null, analysisNote: result.error.message, stats: stats(bars) });
  const { diagnosis, ...analysis } = result.value;
  return ok({
    ...base,
    analysis,
    ...(diagnosis ? { position: { cost: input.cost, ...diagnosis } } : {}),
    stats: stats(bars),
  });
};
