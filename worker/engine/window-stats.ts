/**
 * Rolling window extremes in O(n) (monotonic deques), equal to the straightforward loops they
 * replace: the value at t is Math.min/Math.max over values[max(0, t−n+1) .. t], and NaN whenever
 * the window holds a NaN (as Math.min/Math.max answer). Used to answer per-day questions by index.
 */
import { at, type NumSeries } from "./numeric";

/**
 * One monotonic-deque pass; `sign` 1 keeps minima, -1 maxima (comparing `sign * value`, which orders
 * the same as the value or its negation, so no comparator call per step). Indices live in one
 * scratch deque grown on demand (each call is synchronous).
 */
let deque = new Int32Array(1024);

function rolling(values: NumSeries, n: number, sign: 1 | -1, into?: Float64Array): Float64Array {
  const len = values.length;
  const out = into && into.length === len ? into : new Float64Array(len);
  if (deque.length < len) deque = new Int32Array(Math.max(len, 2 * deque.length));
  const dq = deque;
  const v64 = values instanceof Float64Array ? values : Float64Array.from({ length: len }, (_, i) => at(values, i));
  let head = 0;
  let tail = 0;
  let lastNaN = -1;
  for (let t = 0; t < len; t++) {
    const v = v64[t] as number;
    if (v !== v) lastNaN = t;
    else {
      const key = sign * v;
      // Drop the back while it is not strictly better than v (ties: the newer index wins).
      while (tail > head && !(sign * (v64[dq[tail - 1] as number] as number) < key)) tail--;
      dq[tail++] = t;
    }
    const from = t - n + 1;
    while (tail > head && (dq[head] as number) < from) head++;
    out[t] =
      lastNaN >= 0 && lastNaN >= from ? Number.NaN : tail > head ? (v64[dq[head] as number] as number) : Number.NaN;
  }
  return out;
}

/**
 * Rolling minimum over the last `n` values (a shorter window at the start). `into` (of the values'
 * length) is written instead of a new array, for a caller that reuses one buffer across series.
 */
export function rollingMin(values: NumSeries, n: number, into?: Float64Array): Float64Array {
  return rolling(values, n, 1, into);
}

/** Rolling maximum over the last `n` values (a shorter window at the start); `into` as for rollingMin. */
export function rollingMax(values: NumSeries, n: number, into?: Float64Array): Float64Array {
  return rolling(values, n, -1, into);
}

/**
 * Index of the extreme over each window values[max(0, t−n+1) .. t], written to `into[t]`: the
 * minimum (`sign` 1) or the maximum (−1), ties to the earliest index (`latest` false: what a forward
 * scan with a strict comparison keeps) or to the latest (a backward scan's). One monotonic-deque
 * pass. Returns false, leaving `into` unspecified, when the values hold a NaN: there such a scan
 * answers by position (no comparison with NaN holds), so the caller keeps its own loop.
 */
export function rollingArgExtreme(
  values: Float64Array,
  n: number,
  sign: 1 | -1,
  latest: boolean,
  into: Int32Array,
): boolean {
  const len = values.length;
  for (let t = 0; t < len; t++) if ((values[t] as number) !== (values[t] as number)) return false;
  if (deque.length < len) deque = new Int32Array(Math.max(len, 2 * deque.length));
  if (sign === 1) argMinLoop(values, n, latest, into, deque);
  else argMaxLoop(values, n, latest, into, deque);
  return true;
}

/** rollingArgExtreme's pass for minima (NaN-free values; `dq` as long as they are). */
function argMinLoop(values: Float64Array, n: number, latest: boolean, into: Int32Array, dq: Int32Array): void {
  let head = 0;
  let tail = 0;
  for (let t = 0; t < values.length; t++) {
    const v = values[t] as number;
    // Drop the back while t beats it: strictly, or also on a tie when the latest index wins.
    while (tail > head) {
      const b = values[dq[tail - 1] as number] as number;
      if (b > v || (latest && b === v)) tail--;
      else break;
    }
    dq[tail++] = t;
    if ((dq[head] as number) <= t - n) head++;
    into[t] = dq[head] as number;
  }
}

/** rollingArgExtreme's pass for maxima, as argMinLoop. */
function argMaxLoop(values: Float64Array, n: number, latest: boolean, into: Int32Array, dq: Int32Array): void {
  let head = 0;
  let tail = 0;
  for (let t = 0; t < values.length; t++) {
    const v = values[t] as number;
    while (tail > head) {
      const b = values[dq[tail - 1] as number] as number;
      if (b < v || (latest && b === v)) tail--;
      else break;
    }
    dq[tail++] = t;
    if ((dq[head] as number) <= t - n) head++;
    into[t] = dq[head] as number;
  }
}
