/**
 * Volume primitives: on-balance volume and the volume ratio to the prior average
 * (vr_t = V_t / mean(V_{t−n..t−1}), DOMAIN.md §1.13 B).
 */
import { at, nanArray, type NumSeries } from "./numeric";

/** On-balance volume, starting at 0 on the first bar. */
export function obv(close: NumSeries, volume: NumSeries): Float64Array {
  const out = new Float64Array(close.length);
  for (let i = 1; i < close.length; i++) {
    const d = at(close, i) - at(close, i - 1);
    out[i] = at(out, i - 1) + (d > 0 ? at(volume, i) : d < 0 ? -at(volume, i) : 0);
  }
  return out;
}

/** Ratio of each value to the mean of the `n` values before it (NaN for t < n or a zero mean); `into` is filled instead of a new array. */
export function ratioToPriorMean(values: NumSeries, n: number, into?: Float64Array): Float64Array {
  const out = into ? into.fill(Number.NaN) : nanArray(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    if (i >= n) {
      const mean = sum / n;
      out[i] = mean > 0 ? at(values, i) / mean : Number.NaN;
      sum -= at(values, i - n);
    }
    sum += at(values, i);
  }
  return out;
}

/** Volume ratio vr over `n` prior bars. */
export function volumeRatio(volume: NumSeries, n = 20, into?: Float64Array): Float64Array {
  return ratioToPriorMean(volume, n, into);
}
