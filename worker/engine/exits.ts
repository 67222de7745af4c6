/**
 * L5 exits (DOMAIN.md §1.11 L5): the structural stop under the base, the trailing stop once the
 * position is +15% off the base, an ATR stop, and the two-close exit confirmation.
 */
import type { Stops } from "../contracts/analysis";
import { at, finiteOrNull } from "./numeric";
import type { Series } from "./series";

/** Stops at bar t. `base` is the structure's low (Spring/SC low or support), else the 250-day low. */
export function computeStops(s: Series, t: number, base?: number): Stops {
  let low250 = Number.POSITIVE_INFINITY;
  let high60 = Number.NEGATIVE_INFINITY;
  for (let i = Math.max(0, t - 249); i <= t; i++) low250 = Math.min(low250, at(s.low, i));
  for (let i = Math.max(0, t - 59); i <= t; i++) high60 = Math.max(high60, at(s.high, i));
  const b = base ?? low250;
  const c = at(s.close, t);
  const reasons = [`structural stop 7% under the base low`];
  const structural = b * 0.93;
  let trailing = Number.NaN;
  if (c >= b * 1.15) {
    const ma50 = at(s.sma50, t);
    trailing = Math.max(high60 * 0.9, Number.isFinite(ma50) ? ma50 * 0.98 : Number.NEGATIVE_INFINITY);
    reasons.push("trailing stop: max(60-day high − 10%, 0.98 × MA50) once 15% above the base");
  }
  const atr = c - 2 * at(s.atr, t);
  return { structural: finiteOrNull(structural), trailing: finiteOrNull(trailing), atr: finiteOrNull(atr), reasons };
}

/** Exit decision at bar t for a stop level: deep breach (≥ 5%) at once, else two closes under it on ≥ 0.8× volume. */
export function exitSignal(s: Series, t: number, stop: number): { exit: boolean; reason: string | null } {
  const c = at(s.close, t);
  if (c <= stop * 0.95) return { exit: true, reason: "closed 5% or more under the stop" };
  const under = (i: number): boolean => at(s.close, i) < stop && at(s.vr, i) >= 0.8;
  if (t >= 1 && under(t) && under(t - 1)) return { exit: true, reason: "two closes under the stop on normal volume" };
  return { exit: false, reason: null };
}
