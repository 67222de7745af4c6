/**
 * rpsRanks ranks by a radix sort of float32 keys (runs of one key put in order by the doubles)
 * instead of sorting (value, index) pairs with a comparator; its answers must equal the pair sort's
 * bit for bit, ties (-0 with 0 included), NaN and ±Infinity (left unranked), doubles float32 cannot
 * tell apart (short and long runs of one key), values past float32's range or below its smallest,
 * and the one-value case alike.
 */
import { describe, expect, it } from "vitest";
import { rpsRanks, rpsRanksInto } from "../../../worker/engine/relative-strength";
import { createRng, uniform } from "../../../worker/engine/sim/rng";

/** The (value, index) pair sort rpsRanks had before (the reference). */
function rpsReference(values: readonly number[]): number[] {
  const idx = values.map((v, i) => [v, i] as const).filter(([v]) => Number.isFinite(v));
  idx.sort((a, b) => a[0] - b[0]);
  const out = values.map(() => Number.NaN);
  const m = idx.length;
  let k = 0;
  while (k < m) {
    let e = k;
    while (e + 1 < m && idx[e + 1]?.[0] === idx[k]?.[0]) e++;
    const rank = m === 1 ? 100 : ((k + e) / 2 / (m - 1)) * 100;
    for (let q = k; q <= e; q++) {
      const item = idx[q];
      if (item) out[item[1]] = rank;
    }
    k = e + 1;
  }
  return out;
}

const rng = createRng(21);

function sample(n: number, kind: number): number[] {
  return Array.from({ length: n }, () => {
    const u = uniform(rng, 0, 1);
    if (kind === 1 && u < 0.1) return Number.NaN;
    if (kind === 2 && u < 0.06) return u < 0.03 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    if (kind === 3) return u < 0.3 ? (u < 0.15 ? -0 : 0) : Math.round(uniform(rng, -4, 4));
    if (kind === 4) return Math.round(uniform(rng, -50, 50)) / 1e6;
    // Doubles one float32 key holds: runs of a few, and one long run (past the insertion sort's 32).
    if (kind === 5) return (u < 0.5 ? 1 : -3) + Math.round(uniform(rng, 0, 8)) * 2 ** -45;
    if (kind === 6) return 0.25 + Math.round(uniform(rng, 0, 1e6)) * 2 ** -52;
    // Past float32's range (float32 ±Infinity) and below its smallest (float32 ±0), among ordinary values.
    if (kind === 7) {
      const pick = [1e300, -1e300, 3e38, -7e39, 1e-50, -1e-50, 5e-324, -5e-324, -0, 0, 1e-46, -2e-46];
      return u < 0.6 ? (pick[Math.floor(u * 20)] ?? 0) * (1 + Math.round(uniform(rng, 0, 3))) : uniform(rng, -1, 1);
    }
    return uniform(rng, -0.5, 0.8);
  });
}

describe("rpsRanks", () => {
  it("equals the pair sort on random inputs with ties, NaN, ±Infinity and -0", () => {
    for (const n of [0, 1, 2, 3, 17, 400, 3000, 5300])
      for (let kind = 0; kind <= 7; kind++) {
        const v = sample(n, kind);
        expect(rpsRanks(v)).toEqual(rpsReference(v));
      }
  });

  it("rpsRanksInto answers the same into a given buffer, calls of any size in any order", () => {
    for (const n of [5300, 3, 2100, 0, 700]) {
      const v = sample(n, n % 7);
      const out = new Float64Array(n + 2).fill(-1);
      expect(Array.from(rpsRanksInto(v, n, out).subarray(0, n))).toEqual(rpsReference(v));
      expect([out[n], out[n + 1]]).toEqual([-1, -1]);
    }
  });

  it("gives ties the mean rank and leaves non-finite values unranked", () => {
    const r = rpsRanks([2, -0, 0, Number.NaN, 1, Number.POSITIVE_INFINITY]);
    expect(r).toEqual(rpsReference([2, -0, 0, Number.NaN, 1, Number.POSITIVE_INFINITY]));
    expect(r[0]).toBe(100);
    expect(r[1]).toBe(r[2]);
    expect(r[1]).toBeCloseTo(100 / 6, 12);
    expect(r[4]).toBeCloseTo(200 / 3, 12);
    expect([r[3], r[5]]).toEqual([Number.NaN, Number.NaN]);
    expect(rpsRanks([Number.NaN, 5])).toEqual([Number.NaN, 100]);
  });
});
