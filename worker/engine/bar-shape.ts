/**
 * Per-bar shape primitives: spread ratio, close position, 1-day change and the A-share
 * limit-locked ("frozen") flag, on which volume and close confirmation mean nothing.
 */
import { at, type NumSeries } from "./numeric";
import { ratioToPriorMean } from "./volume";

/** Spread ratio sr_t = (H−L)_t / mean((H−L) over the `n` prior bars); `into` (and `scratch`) filled instead of new arrays. */
export function spreadRatio(
  high: NumSeries,
  low: NumSeries,
  n = 20,
  into?: Float64Array,
  scratch?: Float64Array,
): Float64Array {
  const spread = scratch ?? new Float64Array(high.length);
  for (let i = 0; i < high.length; i++) spread[i] = at(high, i) - at(low, i);
  return ratioToPriorMean(spread, n, into);
}

/** Close position (C−L)/(H−L); 0.5 for a bar with no range. `into` is filled instead of a new array. */
export function closePosition(high: NumSeries, low: NumSeries, close: NumSeries, into?: Float64Array): Float64Array {
  const out = into ?? new Float64Array(high.length);
  for (let i = 0; i < high.length; i++) {
    const r = at(high, i) - at(low, i);
    out[i] = r > 0 ? (at(close, i) - at(low, i)) / r : 0.5;
  }
  return out;
}

/** 1-day change C_t/C_{t−1} − 1 (0 on the first bar); `into` is filled instead of a new array. */
export function pctChange(close: NumSeries, into?: Float64Array): Float64Array {
  const out = into ?? new Float64Array(close.length);
  out[0] = 0;
  for (let i = 1; i < close.length; i++) out[i] = at(close, i) / at(close, i - 1) - 1;
  return out;
}

/** Smallest |1-day change| of a limit move on any A-share board (ST stocks move ±5%). */
export const LIMIT_MOVE_MIN = 0.045;

/**
 * Frozen (limit-locked) bar: (H−L)/C ≤ pct and |O−C|/C ≤ pct (WyckoffAgent), and — our addition —
 * a limit-sized move |C/C₋₁ − 1| ≥ 4.5%, so quiet narrow bars in a range are not mistaken for locks.
 * Only meaningful for CN bars.
 */
export function isFrozenBar(
  open: number,
  high: number,
  low: number,
  close: number,
  prevClose: number,
  pct = 0.01,
): boolean {
  return (
    (high - low) / close <= pct &&
    Math.abs(open - close) / close <= pct &&
    Math.abs(close / prevClose - 1) >= LIMIT_MOVE_MIN
  );
}
