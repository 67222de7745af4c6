/**
 * Handler of `intraday_analysis`: VWAP, day-range position, least-squares trend, 15-minute momentum,
 * volume concentration and a strength score /100 from the latest session's minute bars.
 */
import type { MinuteBar } from "../../contracts/market";
import { err, ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { intradayAnalysisSpec } from "../specs/intraday-analysis";
import { brief, pctChange } from "../pure/market-stats";

const r2 = (x: number): number => Math.round(x * 100) / 100;

/** The metrics (pure), for the latest session in `bars`. */
export function intradayMetrics(all: readonly MinuteBar[], interval: number) {
  const session = all[all.length - 1]?.time.slice(0, 10) ?? "";
  const bars = all.filter((b) => b.time.startsWith(session));
  const first = bars[0];
  const last = bars[bars.length - 1];
  if (!first || !last) return null;
  const high = Math.max(...bars.map((b) => b.high));
  const low = Math.min(...bars.map((b) => b.low));
  const total = bars.reduce((a, b) => a + b.volume, 0);
  let pv = 0;
  let above = 0;
  for (const b of bars) {
    const typical = (b.high + b.low + b.close) / 3;
    pv += typical * b.volume;
  }
  const vwap = total > 0 ? pv / total : last.close;
  let cum = 0;
  let cumPv = 0;
  for (const b of bars) {
    cum += b.volume;
    cumPv += ((b.high + b.low + b.close) / 3) * b.volume;
    if (cum > 0 && b.close >= cumPv / cum) above++;
  }
  // Trend: least-squares slope of the last 30 minutes' closes, in % per hour.
  const tail = bars.slice(-Math.max(2, Math.round(30 / interval)));
  const n = tail.length;
  const xm = (n - 1) / 2;
  const ym = tail.reduce((a, b) => a + b.close, 0) / n;
  let num = 0;
  let den = 0;
  tail.forEach((b, i) => {
    num += (i - xm) * (b.close - ym);
    den += (i - xm) ** 2;
  });
  const slopePerHour = den > 0 ? ((num / den) * (60 / interval) * 100) / ym : 0;
  const trend = slopePerHour > 0.3 ? "up" : slopePerHour < -0.3 ? "down" : "flat";
  const k15 = Math.round(15 / interval);
  const ref15 = bars[bars.length - 1 - k15];
  const momentum15 = ref15 ? pctChange(ref15.close, last.close) : null;
  const k30 = Math.round(30 / interval);
  const share = (xs: readonly MinuteBar[]): number =>
    total > 0 ? r2(xs.reduce((a, b) => a + b.volume, 0) / total) : 0;
  const sorted = [...bars].sort((a, b) => b.volume - a.volume);
  const top = sorted.slice(0, Math.max(1, Math.round(bars.length * 0.1)));
  const position = high > low ? (last.close - low) / (high - low) : 0.5;
  const vsVwap = pctChange(vwap, last.close);
  const aboveShare = above / bars.length;
  // Strength: VWAP side (30), range position (25), trend (20), momentum (15), time above VWAP (10).
  const clamp = (x: number): number => Math.max(0, Math.min(1, x));
  const strength = Math.round(
    30 * clamp(0.5 + vsVwap / 2) +
      25 * position +
      20 * clamp(0.5 + slopePerHour / 2) +
      15 * clamp(0.5 + (momentum15 ?? 0) / 2) +
      10 * aboveShare,
  );
  const reading =
    strength >= 70
      ? "strong session: holding above VWAP near the day's high"
      : strength <= 30
        ? "weak session: below VWAP near the day's low"
        : "mixed session: around VWAP inside the day's range";
  return {
    session,
    bars: bars.length,
    last: last.close,
    open: first.open,
    high,
    low,
    changeFromOpenPct: pctChange(first.open, last.close),
    vwap: r2(vwap),
    vsVwapPct: vsVwap,
    aboveVwapShare: r2(aboveShare),
    dayRangePosition: r2(position),
    trend: trend as "up" | "down" | "flat",
    trendSlopePctPerHour: r2(slopePerHour),
    momentum15Pct: momentum15,
    volume: {
      total,
      first30minShare: share(bars.slice(0, k30)),
      last30minShare: share(bars.slice(-k30)),
      top10pctMinutesShare: share(top),
    },
    strength: Math.max(0, Math.min(100, strength)),
    reading,
  };
}

/** Reads minute bars through the port and computes the metrics. */
export const intradayAnalysisHandler: ToolHandler<typeof intradayAnalysisSpec> = async (input, deps) => {
  const r = await deps.market.minuteBars(input.code, { interval: input.interval });
  if (!r.ok) return r;
  const m = intradayMetrics(r.value.bars, input.interval);
  if (!m || m.bars < 3) return err("insufficient_data", `not enough minute bars for ${r.value.symbol.id}`);
  return ok({ symbol: brief(r.value.symbol), ...m, source: r.value.provenance });
};
