/**
 * Simple and exponential moving averages. Causal: the value at t uses bars ≤ t only,
 * and is NaN until the window is full.
 */
import { at, nanArray, type NumSeries } from "./numeric";

/** Simple moving average over `n` bars (rolling sum, O(length)); `into` is filled instead of a new array. */
export function sma(values: NumSeries, n: number, into?: Float64Array): Float64Array {
  const out = into ? into.fill(Number.NaN) : nanArray(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += at(values, i);
    if (i >= n) sum -= at(values, i - n);
    if (i >= n - 1) out[i] = sum / n;
  }
  return out;
}

/** Exponential moving average, alpha = 2/(n+1), seeded with the SMA of the first `n` values. */
export function ema(values: NumSeries, n: number): Float64Array {
  const out = nanArray(values.length);
  if (values.length < n) return out;
  const alpha = 2 / (n + 1);
  let prev = 0;
  for (let i = 0; i < n; i++) prev += at(values, i);
  prev /= n;
  out[n - 1] = prev;
  for (let i = n; i < values.length; i++) {
    prev = prev + alpha * (at(values, i) - prev);
    out[i] = prev;
  }
  return out;
}
