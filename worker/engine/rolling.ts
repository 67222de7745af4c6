/**
 * Allocation-free order statistics for the structure scan's hot paths: the same values as
 * `quantileOf` / `medianOf` (numeric.ts) — bit for bit — without copying into a new array and
 * sorting it with a comparator on every call. The window is copied into one reusable scratch
 * buffer and the two order statistics the interpolation needs are found by selection (O(n)).
 * A window holding a non-finite value falls back to `quantileOf` itself, whose sort order for NaN
 * is the engine's reference behaviour.
 */
import { quantileOf, type NumSeries } from "./numeric";

let scratch = new Float64Array(256);

/** Rearranges a[lo..hi] so that a[k] is the value a full sort would put there (Hoare-style quickselect). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // Median of three as the pivot keeps sorted and reversed windows linear.
    const mid = (lo + hi) >> 1;
    const x = a[lo] as number;
    const y = a[mid] as number;
    const z = a[hi] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** `quantileOf(values, from, to, q)`, exactly, without allocating or sorting. */
export function quantileFast(values: NumSeries, from: number, to: number, q: number): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  const a = scratch;
  for (let i = 0; i < n; i++) {
    const v = values[from + i];
    if (v === undefined || !Number.isFinite(v)) return quantileOf(values, from, to, q);
    a[i] = v;
  }
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  select(a, 0, n - 1, lo);
  const vLo = a[lo] as number;
  let vHi = vLo;
  if (hi !== lo) {
    // After selecting lo, every value right of it is ≥ a[lo]: the next order statistic is their minimum.
    vHi = a[lo + 1] as number;
    for (let i = lo + 2; i < n; i++) if ((a[i] as number) < vHi) vHi = a[i] as number;
  }
  return vLo + (vHi - vLo) * (pos - lo);
}

/** `medianOf(values, from, to)`, exactly, without allocating or sorting. */
export function medianFast(values: NumSeries, from: number, to: number): number {
  return quantileFast(values, from, to, 0.5);
}
