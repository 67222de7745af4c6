/**
 * Momentum primitives: Wilder RSI, k-bar returns, bias to a moving average and the
 * least-squares slope over a rolling window. All causal.
 */
import { at, nanArray, type NumSeries } from "./numeric";

/** Wilder RSI; the first value (index n) is seeded with simple means of the first n changes. */
export function rsiWilder(close: NumSeries, n = 14): Float64Array {
  const out = nanArray(close.length);
  if (close.length <= n) return out;
  const w = wilderSeed(close, n);
  out[n] = rsiOf(w);
  for (let i = n + 1; i < close.length; i++) {
    wilderStep(w, at(close, i) - at(close, i - 1), n);
    out[i] = rsiOf(w);
  }
  return out;
}

/** `rsiWilder(close, n)` at its last bar only (the same recursion, no array): NaN when too short. */
export function rsiWilderLast(close: NumSeries, n = 14): number {
  if (close.length <= n) return Number.NaN;
  const w = wilderSeed(close, n);
  for (let i = n + 1; i < close.length; i++) wilderStep(w, at(close, i) - at(close, i - 1), n);
  return rsiOf(w);
}

/** Wilder's running average gain and loss. */
interface Wilder {
  gain: number;
  loss: number;
}

/** The seed: the plain mean gain and loss of the first `n` changes (bars 1..n). */
function wilderSeed(close: NumSeries, n: number): Wilder {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const d = at(close, i) - at(close, i - 1);
    if (d > 0) gain += d;
    else loss -= d;
  }
  return { gain: gain / n, loss: loss / n };
}

/** One bar of Wilder's smoothing: avg ← (avg·(n−1) + x) / n for the gain and the loss of change `d`. */
function wilderStep(w: Wilder, d: number, n: number): void {
  w.gain = (w.gain * (n - 1) + (d > 0 ? d : 0)) / n;
  w.loss = (w.loss * (n - 1) + (d < 0 ? -d : 0)) / n;
}

function rsiOf(w: Wilder): number {
  return w.loss === 0 ? 100 : 100 - 100 / (1 + w.gain / w.loss);
}

/** k-bar return C_t / C_{t−k} − 1 (NaN for t < k); `into` is filled instead of a new array. */
export function returns(close: NumSeries, k: number, into?: Float64Array): Float64Array {
  const out = into ? into.fill(Number.NaN) : nanArray(close.length);
  for (let i = k; i < close.length; i++) out[i] = at(close, i) / at(close, i - k) - 1;
  return out;
}

/** Bias of the close to a moving average: C/MA − 1. */
export function maBias(close: NumSeries, ma: NumSeries): Float64Array {
  const out = nanArray(close.length);
  for (let i = 0; i < close.length; i++) out[i] = at(close, i) / at(ma, i) - 1;
  return out;
}

/** Least-squares slope (units per bar) of the last `n` values ending at each bar. */
export function linregSlope(values: NumSeries, n: number): Float64Array {
  const out = nanArray(values.length);
  if (n < 2) return out;
  const sx = (n * (n - 1)) / 2;
  const sxx = ((n - 1) * n * (2 * n - 1)) / 6;
  const denom = n * sxx - sx * sx;
  for (let i = n - 1; i < values.length; i++) {
    let sy = 0;
    let sxy = 0;
    for (let j = 0; j < n; j++) {
      const y = at(values, i - n + 1 + j);
      sy += y;
      sxy += j * y;
    }
    out[i] = (n * sxy - sx * sy) / denom;
  }
  return out;
}

/** Slope of `values` over the last `n` bars as a fraction of the latest value per bar. */
export function relativeSlopeAt(values: NumSeries, i: number, n: number): number {
  if (i - n + 1 < 0) return Number.NaN;
  const sx = (n * (n - 1)) / 2;
  const sxx = ((n - 1) * n * (2 * n - 1)) / 6;
  let sy = 0;
  let sxy = 0;
  for (let j = 0; j < n; j++) {
    const y = at(values, i - n + 1 + j);
    sy += y;
    sxy += j * y;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return slope / at(values, i);
}
