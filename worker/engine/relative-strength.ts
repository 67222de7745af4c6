/**
 * Relative strength against a benchmark (DOMAIN.md §1.8, §1.13 I): RS10/RS3 return differences,
 * Mansfield RS, down-day resilience, and RPS as a cross-sectional percentile over a universe.
 */
import type { Bar } from "../contracts/analysis";
import { at, nanArray, type NumSeries } from "./numeric";

/**
 * Benchmark closes aligned to `dates`: the last benchmark close on or before each date (NaN before it
 * starts). `into` (of the dates' length) is written instead of a new array.
 */
export function alignBenchmark(dates: readonly string[], bench: readonly Bar[], into?: Float64Array): Float64Array {
  const out = into && into.length === dates.length ? into.fill(Number.NaN) : nanArray(dates.length);
  let j = -1;
  for (let i = 0; i < dates.length; i++) {
    const d = dates[i] ?? "";
    while (j + 1 < bench.length && (bench[j + 1]?.date ?? "") <= d) j++;
    const b = bench[j];
    if (b) out[i] = b.close;
  }
  return out;
}

/** Stock k-bar return minus benchmark k-bar return at t (fractions). */
export function relativeReturn(close: NumSeries, bench: NumSeries, t: number, k: number): number {
  if (t - k < 0) return Number.NaN;
  return at(close, t) / at(close, t - k) - at(bench, t) / at(bench, t - k);
}

/** Mansfield RS at t: (RP / SMA(RP, n) − 1) × 100 with RP = close / benchmark × 100. */
export function mansfieldAt(close: NumSeries, bench: NumSeries, t: number, n = 200): number {
  if (t - n + 1 < 0) return Number.NaN;
  let sum = 0;
  for (let i = t - n + 1; i <= t; i++) sum += at(close, i) / at(bench, i);
  const rp = at(close, t) / at(bench, t);
  return (rp / (sum / n) - 1) * 100;
}

/** Share of benchmark-down days in the last n on which the stock did better than the benchmark. */
export function downDayResilience(close: NumSeries, bench: NumSeries, t: number, n = 20): number {
  let days = 0;
  let better = 0;
  for (let i = Math.max(1, t - n + 1); i <= t; i++) {
    const b = at(bench, i) / at(bench, i - 1) - 1;
    if (!(b < 0)) continue;
    days++;
    if (at(close, i) / at(close, i - 1) - 1 > b) better++;
  }
  return days > 0 ? better / days : Number.NaN;
}

/** RPS: percentile rank × 100 of each value among the finite values (ties share the mean rank). NaN stays NaN. */
export function rpsRanks(values: readonly number[]): number[] {
  const n = values.length;
  const ranks = rpsRanksInto(values, n, new Float64Array(n));
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(ranks[i] as number);
  return out;
}

/** Scratch of `rpsRanksInto` (grown on demand; each call is synchronous, so one set serves all). */
let sortedScratch = new Float64Array(1024);
let hashKeys = new Float64Array(2048);
let hashRanks = new Float64Array(2048);
let hashUsed = new Uint8Array(2048);
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/** Slot of a value (a zero of either sign hashes as +0, as `===` ties them) in a table of mask+1 slots. */
function slotOf(v: number, mask: number): number {
  bits[0] = v === 0 ? 0 : v;
  return Math.imul((words[0] as number) ^ Math.imul(words[1] as number, 0x9e3779b1), 0x85ebca6b) & mask;
}

/**
 * `rpsRanks` of `values[0..n)` written into `out[0..n)` (returned), with no array allocated per call:
 * the same ranks bit for bit. The finite values are sorted as numbers (a typed sort, no comparator
 * calls); each tie run [k, e] of that order (its equals; -0 and 0 tie, as `===` makes them) gets the
 * rank of its mean position, exactly as a sort of (value, index) pairs gives it, kept in a hash table
 * by value, where each value then finds its rank.
 */
export function rpsRanksInto(values: ArrayLike<number>, n: number, out: Float64Array): Float64Array {
  let m = 0;
  for (let i = 0; i < n; i++) if (Number.isFinite(values[i])) m++;
  if (sortedScratch.length < m) sortedScratch = new Float64Array(Math.max(m, 2 * sortedScratch.length));
  const sorted = sortedScratch.subarray(0, m);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) sorted[j++] = v;
  }
  sorted.sort();
  let size = 16;
  while (size < 2 * m) size *= 2;
  if (hashUsed.length < size) {
    hashKeys = new Float64Array(size);
    hashRanks = new Float64Array(size);
    hashUsed = new Uint8Array(size);
  } else hashUsed.fill(0, 0, size);
  const mask = size - 1;
  let k = 0;
  while (k < m) {
    let e = k;
    while (e + 1 < m && sorted[e + 1] === sorted[k]) e++;
    const rank = m === 1 ? 100 : ((k + e) / 2 / (m - 1)) * 100;
    const v = sorted[k] as number;
    let h = slotOf(v, mask);
    while (hashUsed[h] === 1) h = (h + 1) & mask;
    hashUsed[h] = 1;
    hashKeys[h] = v;
    hashRanks[h] = rank;
    k = e + 1;
  }
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) {
      out[i] = Number.NaN;
      continue;
    }
    let h = slotOf(v, mask);
    while (hashUsed[h] !== 1 || hashKeys[h] !== v) h = (h + 1) & mask;
    out[i] = hashRanks[h] as number;
  }
  return out;
}
