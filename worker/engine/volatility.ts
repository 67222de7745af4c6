/**
 * True range and Wilder ATR. The ATR seed is the mean of the first `n` true ranges with
 * TR₀ = H₀−L₀, which reproduces StockCharts' cs-atr column (DOMAIN.md §3.1).
 */
import { at, nanArray, type NumSeries } from "./numeric";

/** True range: max(H−L, |H−C₋₁|, |L−C₋₁|); the first bar is H−L. `into` is filled instead of a new array. */
export function trueRange(high: NumSeries, low: NumSeries, close: NumSeries, into?: Float64Array): Float64Array {
  const n = high.length;
  const out = into ?? new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const h = at(high, i);
    const l = at(low, i);
    if (i === 0) {
      out[i] = h - l;
      continue;
    }
    const pc = at(close, i - 1);
    out[i] = Math.max(h - l, Math.abs(h - pc), Math.abs(l - pc));
  }
  return out;
}

/** Wilder ATR over `n` bars; first value at index n−1. `into` is filled instead of a new array. */
export function atrWilder(tr: NumSeries, n = 14, into?: Float64Array): Float64Array {
  const out = into ? into.fill(Number.NaN) : nanArray(tr.length);
  if (tr.length < n) return out;
  let prev = 0;
  for (let i = 0; i < n; i++) prev += at(tr, i);
  prev /= n;
  out[n - 1] = prev;
  for (let i = n; i < tr.length; i++) {
    prev = (prev * (n - 1) + at(tr, i)) / n;
    out[i] = prev;
  }
  return out;
}
