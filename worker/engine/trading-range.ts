/**
 * Pivot-median trading range at bar t (DOMAIN.md §1.13 D.2, WyckoffAgent defaults): support and
 * resistance are medians of the last ≤ 5 confirmed pivots in [t−90, t−1], checked for width,
 * drift and touches, and scored 0–1. The event-anchored range lives in the structure scan.
 */
import { at, clamp, median, quantileOf } from "./numeric";
import type { EngineParams } from "./params";
import type { Pivot } from "./pivots";
import type { Series } from "./series";

/** A trading range candidate with its checks. */
export interface RangeAt {
  support: number;
  resistance: number;
  /** First and last bar index of the window. */
  from: number;
  to: number;
  width: number;
  drift: number;
  supportTests: number;
  resistanceTests: number;
  quality: number;
  /** True when width, drift and touch checks all pass. */
  valid: boolean;
}

/** Quality 0–1: 0.45·touches + 0.35·width fit + 0.20·low drift (WyckoffAgent formula). */
export function rangeQuality(tests: number, width: number, drift: number, atrPct: number, maxDrift: number): number {
  const ideal = clamp(4 * atrPct, 0.06, 0.4);
  const q =
    0.45 * Math.min(tests / 6, 1) +
    0.35 * Math.max(0, 1 - Math.abs(width - ideal) / ideal) +
    0.2 * Math.max(0, 1 - drift / maxDrift);
  return clamp(q, 0, 1);
}

/**
 * Pivot-median range for the window ending at t−1 (today is tested against it).
 * `pivots` must be those known at t. Returns null with too few bars, or too few pivots
 * when `allowFallback` is false (the fallback sorts the window and is kept for the final answer).
 */
export function pivotRangeAt(
  s: Series,
  pivots: readonly Pivot[],
  t: number,
  params: EngineParams,
  scale: number,
  allowFallback: boolean,
): RangeAt | null {
  const to = t - 1;
  const from = Math.max(0, t - params.rangeWindow);
  if (to - from + 1 < params.rangeMinBars) return null;
  const lows: number[] = [];
  const highs: number[] = [];
  for (let i = pivots.length - 1; i >= 0 && (lows.length < 5 || highs.length < 5); i--) {
    const p = pivots[i];
    if (!p || p.index < from) break;
    if (p.index > to || p.confirmedAt > to) continue;
    if (p.kind === "low" && lows.length < 5) lows.push(p.price);
    if (p.kind === "high" && highs.length < 5) highs.push(p.price);
  }
  if (!allowFallback && (lows.length < 2 || highs.length < 2)) return null;
  const support = lows.length >= 2 ? median(lows) : quantileOf(s.low, from, to + 1, 0.1);
  const resistance = highs.length >= 2 ? median(highs) : quantileOf(s.high, from, to + 1, 0.9);
  if (!(resistance > support)) return null;
  const width = (resistance - support) / support;
  const first = at(s.close, from);
  const drift = Math.abs(at(s.close, to) - first) / first;
  let supportTests = 0;
  let resistanceTests = 0;
  const sTouch = support * 1.035;
  const rTouch = resistance * 0.965;
  // Only bars that closed inside the bands (within the touch tolerance: the bands are pivot medians)
  // test them; a close beyond a band is a break, not a test, and lowers the quality.
  let inside = 0;
  const sFloor = support * 0.965;
  const rCeil = resistance * 1.035;
  for (let i = from; i <= to; i++) {
    const c = at(s.close, i);
    if (c < sFloor || c > rCeil) continue;
    inside++;
    if (at(s.low, i) <= sTouch) supportTests++;
    if (at(s.high, i) >= rTouch) resistanceTests++;
  }
  const maxDrift = params.rangeMaxDrift * scale;
  const valid =
    width >= params.rangeMinWidth * scale &&
    width <= params.rangeMaxWidth * scale &&
    drift <= maxDrift &&
    supportTests >= 2 &&
    resistanceTests >= 2;
  const atrPct = at(s.atr, to) / at(s.close, to);
  const quality =
    rangeQuality(supportTests + resistanceTests, width, drift, Number.isFinite(atrPct) ? atrPct : 0.02, maxDrift) *
    (inside / (to - from + 1));
  return { support, resistance, from, to, width, drift, supportTests, resistanceTests, quality, valid };
}
