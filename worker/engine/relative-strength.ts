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
let keys = new Uint32Array(1024);
let keysNext = new Uint32Array(1024);
let order = new Int32Array(1024);
let orderNext = new Int32Array(1024);
const counts = new Int32Array(3 * 2048);
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/**
 * `rpsRanks` of `values[0..n)` written into `out[0..n)` (returned; `out` must not be `values`), with
 * no array allocated per call: the same ranks bit for bit. The finite values are put in ascending
 * order by their float32 roundings first — `Math.fround` never reverses an order — as unsigned keys
 * (the bits with the sign flipped for a positive value, every bit flipped for a negative one, so
 * that unsigned order is numeric order; -0 keyed as 0), by an LSD radix sort of 11 bits a pass;
 * then each run of equal keys (doubles float32 does not tell apart: rare) is put in order by the
 * doubles themselves (the order among equal doubles does not matter: they share a rank). Each tie
 * run [k, e] of that order (its `===` equals: -0 ties 0) gets the rank of its mean position, exactly
 * as a sort of (value, index) pairs gives it.
 */
export function rpsRanksInto(values: ArrayLike<number>, n: number, out: Float64Array): Float64Array {
  if (keys.length < n) {
    const size = Math.max(n, 2 * keys.length);
    keys = new Uint32Array(size);
    keysNext = new Uint32Array(size);
    order = new Int32Array(size);
    orderNext = new Int32Array(size);
  }
  let key = keys;
  let keyTo = keysNext;
  let src = order;
  let dst = orderNext;
  counts.fill(0);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) {
      out[i] = Number.NaN;
      continue;
    }
    f32[0] = v === 0 ? 0 : v;
    const b = f32Bits[0] as number;
    const k = b >>> 31 === 1 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
    key[m] = k;
    src[m++] = i;
    const d0 = k & 2047;
    const d1 = 2048 + ((k >>> 11) & 2047);
    const d2 = 4096 + (k >>> 22);
    counts[d0] = (counts[d0] as number) + 1;
    counts[d1] = (counts[d1] as number) + 1;
    counts[d2] = (counts[d2] as number) + 1;
  }
  for (let pass = 0; pass < 3; pass++) {
    const base = 2048 * pass;
    const shift = 11 * pass;
    // A digit every key shares leaves the order as it is.
    if (m === 0 || counts[base + (((key[0] as number) >>> shift) & 2047)] === m) continue;
    let sum = 0;
    for (let d = 0; d < 2048; d++) {
      const c = counts[base + d] as number;
      counts[base + d] = sum;
      sum += c;
    }
    for (let j = 0; j < m; j++) {
      const k = key[j] as number;
      const d = base + ((k >>> shift) & 2047);
      const at = counts[d] as number;
      counts[d] = at + 1;
      keyTo[at] = k;
      dst[at] = src[j] as number;
    }
    let t = key;
    key = keyTo;
    keyTo = t;
    const u = src;
    src = dst;
    dst = u;
  }
  // Runs of one float32 key (doubles float32 does not tell apart) put in order by the doubles.
  for (let j = 1; j < m; j++) {
    if (key[j] !== key[j - 1]) continue;
    let e = j;
    while (e + 1 < m && key[e + 1] === key[j]) e++;
    if (e - j < 32) {
      // Insertion sort (equal doubles never move: a run of ties is linear).
      for (let a = j; a <= e; a++) {
        const i = src[a] as number;
        const v = values[i] as number;
        let q = a - 1;
        while (q >= j - 1 && (values[src[q] as number] as number) > v) {
          src[q + 1] = src[q] as number;
          q--;
        }
        src[q + 1] = i;
      }
    } else src.subarray(j - 1, e + 1).sort((x, y) => (values[x] as number) - (values[y] as number));
    j = e;
  }
  let k = 0;
  while (k < m) {
    const v = values[src[k] as number] as number;
    let e = k;
    while (e + 1 < m && values[src[e + 1] as number] === v) e++;
    const rank = m === 1 ? 100 : ((k + e) / 2 / (m - 1)) * 100;
    for (let q = k; q <= e; q++) out[src[q] as number] = rank;
    k = e + 1;
  }
  return out;
}
