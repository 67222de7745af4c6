/**
 * Small numeric helpers shared by the indicators: safe indexing under `noUncheckedIndexedAccess`,
 * rolling sums, medians and quantiles. Missing values are NaN, never undefined.
 */

/** A read-only numeric series (plain array or typed array). */
export type NumSeries = ArrayLike<number>;

/** Value at `i`, or NaN when out of range. */
export function at(values: NumSeries, i: number): number {
  const v = values[i];
  return v === undefined ? Number.NaN : v;
}

/** A NaN-filled Float64Array of length `n`. */
export function nanArray(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}

/** Mean of `values[from..to)` (NaN if the slice is empty). */
export function meanOf(values: NumSeries, from: number, to: number): number {
  if (to <= from) return Number.NaN;
  let s = 0;
  if (values instanceof Float64Array && from >= 0 && to <= values.length) {
    // The same sum in the same order, read straight from the typed array (every index is in range).
    for (let i = from; i < to; i++) s += values[i] as number;
    return s / (to - from);
  }
  for (let i = from; i < to; i++) s += at(values, i);
  return s / (to - from);
}

/** Scratch for `median` and `quantileOf` (grown on demand; each call is synchronous, so one buffer serves all). */
let scratch = new Float64Array(512);

/**
 * Median of a list (NaN if empty). Sorts a copy: a typed one natively (no comparator calls) unless a
 * NaN, a -0 or a hole is present, where the comparator sort of a plain copy decides as it always has
 * (the typed sort orders every other list exactly as the comparator does).
 */
export function median(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  const t = scratch.subarray(0, n);
  let plain = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === undefined || v !== v || (v === 0 && 1 / v < 0)) {
      plain = false;
      break;
    }
    t[i] = v;
  }
  if (plain) {
    t.sort();
    const mid = n >> 1;
    return n % 2 === 1 ? (t[mid] as number) : ((t[mid - 1] as number) + (t[mid] as number)) / 2;
  }
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? at(s, mid) : (at(s, mid - 1) + at(s, mid)) / 2;
}

/** Linear-interpolated quantile `q` ∈ [0,1] of `values[from..to)` (NaN if empty). */
export function quantileOf(values: NumSeries, from: number, to: number, q: number): number {
  if (to <= from) return Number.NaN;
  // Fast path: a typed copy sorted natively. It orders exactly as the comparator sort below unless a
  // NaN (the comparator leaves those in place) or a -0 (the typed sort puts it before +0) is present.
  const len = to - from;
  if (scratch.length < len) scratch = new Float64Array(Math.max(len, 2 * scratch.length));
  const t = scratch.subarray(0, len);
  let plain = true;
  for (let i = 0; i < len; i++) {
    const v = at(values, from + i);
    if (v !== v || (v === 0 && 1 / v < 0)) {
      plain = false;
      break;
    }
    t[i] = v;
  }
  if (plain) {
    t.sort();
    const pos = (len - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return at(t, lo) + (at(t, hi) - at(t, lo)) * (pos - lo);
  }
  const s: number[] = [];
  for (let i = from; i < to; i++) s.push(at(values, i));
  s.sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return at(s, lo) + (at(s, hi) - at(s, lo)) * (pos - lo);
}

/** Median of `values[from..to)`. */
export function medianOf(values: NumSeries, from: number, to: number): number {
  return quantileOf(values, from, to, 0.5);
}

/** Clamps `x` into [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/** Rounds to `digits` decimals (for JSON output). */
export function round(x: number, digits = 4): number {
  // Powers of ten up to 1e22 are exact doubles: the table holds the very values `10 ** digits` gives.
  const f = POW10[digits] ?? 10 ** digits;
  return Math.round(x * f) / f;
}

/** NaN/±Infinity → null, otherwise rounded: JSON-safe numbers for the contract. */
export function finiteOrNull(x: number, digits = 4): number | null {
  return Number.isFinite(x) ? round(x, digits) : null;
}

/**
 * Values under `x` in `values[from..to)`, or -1 when the slice holds a non-finite value (or reaches
 * past the end). The typed loop reads each element once, without `at`'s bounds test; `v - v` is 0
 * exactly for finite values (NaN for NaN and ±Infinity).
 */
function countUnder(values: Float64Array, from: number, to: number, x: number): number {
  if (from < 0 || to > values.length) return countUnderAny(values, from, to, x);
  let under = 0;
  let bad = 0;
  for (let i = from; i < to; i++) {
    const v = values[i] as number;
    bad += v - v;
    if (v < x) under++;
  }
  return bad === 0 ? under : -1;
}

function countUnderAny(values: NumSeries, from: number, to: number, x: number): number {
  let under = 0;
  for (let i = from; i < to; i++) {
    const v = at(values, i);
    if (!Number.isFinite(v)) return -1;
    if (v < x) under++;
  }
  return under;
}

/**
 * `x <= quantileOf(values, from, to, q)`, exactly, without sorting in the common cases: counting the
 * values under `x` decides it when the interpolated order statistics both sit on one side of `x`
 * (the interpolation weight must be ≤ 0.5 for the upper shortcut, so rounding cannot overshoot), and
 * when x sits between them the two are found by one more scan; otherwise (both under x with a
 * weight over 0.5), or with non-finite values, it falls back to the sort.
 */
export function atOrBelowQuantile(values: NumSeries, from: number, to: number, q: number, x: number): boolean {
  if (to <= from || Number.isNaN(x)) return x <= quantileOf(values, from, to, q);
  const pos = (to - from - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const under = values instanceof Float64Array ? countUnder(values, from, to, x) : countUnderAny(values, from, to, x);
  if (under < 0) return x <= quantileOf(values, from, to, q);
  // Fewer than lo+1 values under x: the lo-th order statistic is ≥ x, and so is the interpolation.
  if (under <= lo) return true;
  // Both order statistics under x and a weight ≤ 0.5: the rounded interpolation stays ≤ the upper one < x.
  if (hi < under && pos - lo <= 0.5) return false;
  // x between the two: exactly lo+1 values under it, so the lo-th order statistic is the largest of
  // them and the hi-th the smallest of the rest; interpolated as quantileOf does (every value is
  // finite here, so the two are the very values its sort puts at lo and hi, up to the sign of a zero).
  if (under === hi && hi === lo + 1) {
    let vLo = Number.NEGATIVE_INFINITY;
    let vHi = Number.POSITIVE_INFINITY;
    for (let i = from; i < to; i++) {
      const v = values[i] as number;
      if (v < x) {
        if (v > vLo) vLo = v;
      } else if (v < vHi) vHi = v;
    }
    return x <= vLo + (vHi - vLo) * (pos - lo);
  }
  return x <= quantileOf(values, from, to, q);
}
