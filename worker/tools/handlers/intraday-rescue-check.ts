/**
 * Handler of `intraday_rescue_check` (MCP): the latest session's minute bars (as `intraday_analysis`
 * reads them, with its VWAP and strength) classified by the engine's rescue rule
 * (`engine/intraday-rescue.ts`) against the support known before the session — the engine's trading
 * range over the daily bars before it, else the previous day's low.
 */
import type { Bar } from "../../contracts/analysis";
import { classifyRescue } from "../../engine/intraday-rescue";
import { err, ok } from "../../lib/result";
import type { MarketData } from "../../ports/market-data";
import type { SymbolInfo } from "../../contracts/market";
import type { ToolHandler } from "../bind";
import type { intradayRescueCheckSpec } from "../specs/intraday-rescue-check";
import { intradayMetrics } from "./intraday-analysis";
import { brief } from "../pure/market-stats";
import { analyzeSymbol, ANALYSIS_BARS } from "./symbol-analysis";

type Support = { level: number | null; source: "trading_range" | "previous_low" | "none"; note?: string };

/** The daily support in force before `session` (point in time: no bar of the session itself). */
export async function supportBefore(market: MarketData, symbol: SymbolInfo, session: string): Promise<Support> {
  const r = await market.dailyBars(symbol.id, { days: ANALYSIS_BARS + 1 });
  if (!r.ok) return { level: null, source: "none", note: `no daily bars: ${r.error.message}` };
  const before: Bar[] = r.value.bars.filter((b) => b.date < session);
  const prev = before.at(-1);
  if (!prev) return { level: null, source: "none", note: "no daily bar before the session" };
  const a = await analyzeSymbol(market, r.value.symbol, before);
  const range = a.ok ? a.value.tradingRange : null;
  if (range && range.support > 0) return { level: range.support, source: "trading_range" };
  return { level: prev.low, source: "previous_low" };
}

/** Reads the session and the support, and classifies. */
export const intradayRescueCheckHandler: ToolHandler<typeof intradayRescueCheckSpec> = async (input, deps) => {
  const r = await deps.market.minuteBars(input.code, { interval: input.interval });
  if (!r.ok) return r;
  const m = intradayMetrics(r.value.bars, input.interval);
  if (!m || m.bars < 3) return err("insufficient_data", `not enough minute bars for ${r.value.symbol.id}`);
  const sessionBars = r.value.bars.filter((b) => b.time.startsWith(m.session));
  const support = await supportBefore(deps.market, r.value.symbol, m.session);
  const reading = classifyRescue(sessionBars, support.level);
  if (!reading) return err("insufficient_data", `no minute bars in the session of ${r.value.symbol.id}`);
  return ok({
    symbol: brief(r.value.symbol),
    session: m.session,
    interval: input.interval,
    bars: m.bars,
    ...reading,
    supportSource: support.source,
    reasons: support.note ? [...reading.reasons, support.note] : reading.reasons,
    intraday: { vwap: m.vwap, vsVwapPct: m.vsVwapPct, strength: m.strength, reading: m.reading },
    source: r.value.provenance,
  });
};
