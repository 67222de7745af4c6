/**
 * Screening funnel building blocks (DOMAIN.md §1.11, §1.13 M): L1 liquidity and L2 channels as
 * pure functions over a series. L4 triggers live in triggers.ts; the screening work composes them.
 */
import type { Market } from "../contracts/analysis";
import { at, atOrBelowQuantile, meanOf } from "./numeric";
import { relativeReturn } from "./relative-strength";
import type { Series } from "./series";
import { rollingMax, rollingMin } from "./window-stats";

/** A layer's verdict with its reasons. */
export interface LayerResult {
  pass: boolean;
  reasons: string[];
}

/** L1 liquidity at bar t. CN: close ≥ 2 and 20-day mean amount ≥ 50 mn (or a cap ≥ 3.5 bn); US: close ≥ $5 and ≥ $10 mn a day. */
export function l1Liquidity(
  s: Series,
  t: number,
  market: Market,
  o: { amounts?: ArrayLike<number>; marketCap?: number } = {},
): LayerResult {
  return l1LiquidityOf(s.close, s.volume, t, market, o);
}

/** `l1Liquidity` over bare close and volume columns (all it reads of a series). */
export function l1LiquidityOf(
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  t: number,
  market: Market,
  o: { amounts?: ArrayLike<number>; marketCap?: number } = {},
): LayerResult {
  const c = at(close, t);
  let amt = 0;
  const from = Math.max(0, t - 19);
  for (let i = from; i <= t; i++) {
    const a = o.amounts ? at(o.amounts, i) : Number.NaN;
    amt += Number.isFinite(a) ? a : at(close, i) * at(volume, i);
  }
  amt /= t - from + 1;
  if (market === "US") {
    const pass = c >= 5 && amt >= 1e7;
    return { pass, reasons: [pass ? "liquid" : c < 5 ? "price under $5" : "average dollar volume under $10 mn"] };
  }
  if (c < 2) return { pass: false, reasons: ["price under 2 CNY"] };
  if (o.marketCap !== undefined && o.marketCap < 3.5e9 && amt < 8e7)
    return { pass: false, reasons: ["small cap without the turnover to bypass"] };
  const pass = amt >= 5e7;
  return { pass, reasons: [pass ? "liquid" : "20-day average turnover under 50 mn CNY"] };
}

/** L2 inputs beyond the series. */
export interface L2Input {
  /** Benchmark closes aligned to the series. */
  bench?: ArrayLike<number>;
  rps50?: number;
  rps120?: number;
  /** The series' rolling windows (from `funnelWindows`), so each day is answered by index. */
  windows?: FunnelWindows;
}

/** Rolling extremes the L2 checks read, computed once per series (O(n) each). */
export interface FunnelWindows {
  low250: Float64Array;
  high60: Float64Array;
  low60: Float64Array;
  low20: Float64Array;
  low40: Float64Array;
  bench20: Float64Array | null;
  bench40: Float64Array | null;
}

/** The rolling windows of a series (and its aligned benchmark) for `l2Channels`. */
export function funnelWindows(s: Series, bench?: ArrayLike<number>): FunnelWindows {
  return {
    low250: rollingMin(s.low, 250),
    high60: rollingMax(s.high, 60),
    low60: rollingMin(s.low, 60),
    low20: rollingMin(s.low, 20),
    low40: rollingMin(s.low, 40),
    bench20: bench ? rollingMin(bench, 20) : null,
    bench40: bench ? rollingMin(bench, 40) : null,
  };
}

function minOver(v: ArrayLike<number>, from: number, to: number): number {
  let m = Number.POSITIVE_INFINITY;
  for (let i = Math.max(0, from); i <= to; i++) m = Math.min(m, at(v, i));
  return m;
}

/** L2 channels at bar t; passes on any channel. */
export function l2Channels(s: Series, t: number, o: L2Input = {}): LayerResult & { channels: string[] } {
  const channels: string[] = [];
  const reasons: string[] = [];
  const c = at(s.close, t);
  const m50 = at(s.sma50, t);
  const m200 = at(s.sma200, t);
  if (!Number.isFinite(m200)) return { pass: false, channels, reasons: ["needs 200 bars of history"] };
  const w = o.windows;
  const low250 = w ? at(w.low250, t) : minOver(s.low, t - 249, t);
  const rs10 = o.bench ? relativeReturn(s.close, o.bench, t, 10) : Number.NaN;
  const rs3 = o.bench ? relativeReturn(s.close, o.bench, t, 3) : Number.NaN;
  const rsOk = !o.bench || (rs10 >= 0.02 && rs3 >= 0.01);
  const rpsOk =
    o.rps50 === undefined ||
    o.rps120 === undefined ||
    (o.rps50 >= 65 && o.rps120 >= 70) ||
    (o.rps120 >= 80 && o.rps50 >= 50);
  if (m50 > m200 && rsOk && rpsOk && c / m200 - 1 <= 0.25) {
    channels.push("markup");
    reasons.push("MA50 above MA200 with relative strength, not overextended");
  }
  const nearLow = c <= 1.35 * low250;
  if (nearLow) {
    let hi60 = Number.NEGATIVE_INFINITY;
    let lo60 = Number.POSITIVE_INFINITY;
    if (w) {
      hi60 = at(w.high60, t);
      lo60 = at(w.low60, t);
    } else
      for (let i = Math.max(0, t - 59); i <= t; i++) {
        hi60 = Math.max(hi60, at(s.high, i));
        lo60 = Math.min(lo60, at(s.low, i));
      }
    // The volume dry-up ratio is only read once the cheaper conditions hold (same verdict, less work).
    if (
      (hi60 - lo60) / lo60 <= 0.3 &&
      t >= 120 &&
      meanOf(s.volume, t - 19, t + 1) / meanOf(s.volume, t - 119, t - 19) < 0.65 &&
      Math.abs(m50 - m200) / m200 <= 0.06
    ) {
      channels.push("accumulation");
      reasons.push("near the 250-day low in a tight 60-day range with volume drying up");
    }
  }
  if (nearLow && t >= 60) {
    let min10 = Number.POSITIVE_INFINITY;
    for (let i = t - 9; i <= t; i++) min10 = Math.min(min10, at(s.volume, i));
    if (atOrBelowQuantile(s.volume, Math.max(0, t - 249), t + 1, 0.05, min10)) {
      channels.push("dry_volume");
      reasons.push("a 250-day volume low within the last 10 days near the base");
    }
  }
  if (o.bench && t >= 60 && c <= 1.5 * low250) {
    let bRecent: number;
    let bPrior: number;
    let sRecent: number;
    let sPrior: number;
    if (w?.bench20 && w.bench40) {
      bRecent = at(w.bench20, t);
      bPrior = at(w.bench40, t - 20);
      sRecent = at(w.low20, t);
      sPrior = at(w.low40, t - 20);
    } else {
      bRecent = minOver(o.bench, t - 19, t);
      bPrior = minOver(o.bench, t - 59, t - 20);
      sRecent = minOver(s.low, t - 19, t);
      sPrior = minOver(s.low, t - 59, t - 20);
    }
    if (bRecent < bPrior && sRecent >= sPrior) {
      channels.push("rs_divergence");
      reasons.push("the benchmark made a new low while the stock held its low");
    }
  }
  return { pass: channels.length > 0, channels, reasons: reasons.length ? reasons : ["no L2 channel"] };
}
