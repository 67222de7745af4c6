/**
 * Rolling window extremes in O(n) (monotonic deques), equal to the straightforward loops they
 * replace: the value at t is Math.min/Math.max over values[max(0, t−n+1) .. t], and NaN whenever
 * the window holds a NaN (as Math.min/Math.max answer). Used to answer per-day questions by index.
 */
import { at, type NumSeries } from "./numeric";

function rolling(values: NumSeries, n: number, better: (a: number, b: number) => boolean): Float64Array {
  const len = values.length;
  const out = new Float64Array(len);
  const dq = new Int32Array(len);
  let head = 0;
  let tail = 0;
  let lastNaN = -1;
  for (let t = 0; t < len; t++) {
    const v = at(values, t);
    if (Number.isNaN(v)) lastNaN = t;
    else {
      while (tail > head && !better(at(values, dq[tail - 1] ?? 0), v)) tail--;
      dq[tail++] = t;
    }
    const from = t - n + 1;
    while (tail > head && (dq[head] ?? 0) < from) head++;
    out[t] = lastNaN >= 0 && lastNaN >= from ? Number.NaN : tail > head ? at(values, dq[head] ?? 0) : Number.NaN;
  }
  return out;
}

/** Rolling minimum over the last `n` values (a shorter window at the start). */
export function rollingMin(values: NumSeries, n: number): Float64Array {
  return rolling(values, n, (a, b) => a < b);
}

/** Rolling maximum over the last `n` values (a shorter window at the start). */
export function rollingMax(values: NumSeries, n: number): Float64Array {
  return rolling(values, n, (a, b) => a > b);
}
