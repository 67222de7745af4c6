/**
 * atOrBelowQuantile when x sits between the two order statistics quantileOf interpolates (exactly
 * lo+1 values under x): answered from the largest value under x and the smallest of the rest, it
 * must still equal `x <= quantileOf(...)` — ties, zeros of both signs, windows of every length and
 * x landing just below, on and just above the interpolated quantile.
 */
import { describe, expect, it } from "vitest";
import { atOrBelowQuantile, quantileOf } from "../../../worker/engine/numeric";
import { createRng, uniform } from "../../../worker/engine/sim/rng";

const rng = createRng(2112);

function window(n: number, kind: number): number[] {
  return Array.from({ length: n }, () => {
    const u = uniform(rng, 0, 1);
    if (kind === 1) return u < 0.2 ? (u < 0.1 ? -0 : 0) : Math.round(uniform(rng, -3, 3));
    if (kind === 2) return Math.round(uniform(rng, 1, 40)) * 1e5;
    return uniform(rng, 1e5, 9e7);
  });
}

describe("atOrBelowQuantile between the order statistics", () => {
  it("equals the sort's answer when exactly lo+1 values are under x", () => {
    let straddling = 0;
    for (let k = 0; k < 4000; k++) {
      const plain = window(2 + Math.floor(uniform(rng, 0, 260)), k % 3);
      const typed = Float64Array.from(plain);
      const q = [0.05, 0.1, 0.37, 0.5, uniform(rng, 0, 1)][k % 5] ?? 0.05;
      const pos = (plain.length - 1) * q;
      const lo = Math.floor(pos);
      const hi = Math.ceil(pos);
      if (hi === lo) continue;
      const sorted = [...plain].sort((a, b) => a - b);
      const vLo = sorted[lo] ?? 0;
      const vHi = sorted[hi] ?? 0;
      const quantile = quantileOf(plain, 0, plain.length, q);
      // Candidates for x strictly above the lo-th statistic and at most the hi-th one.
      const xs = [vHi, quantile, (vLo + vHi) / 2, vLo + (vHi - vLo) * 1e-9, vHi - (vHi - vLo) * 1e-9];
      xs.push(quantile + Math.abs(quantile) * 1e-15, quantile - Math.abs(quantile) * 1e-15);
      for (const x of xs) {
        if (!(x > vLo && x <= vHi)) continue;
        straddling++;
        const expected = x <= quantile;
        expect(atOrBelowQuantile(typed, 0, plain.length, q, x), `typed ${k} ${x}`).toBe(expected);
        expect(atOrBelowQuantile(plain, 0, plain.length, q, x), `plain ${k} ${x}`).toBe(expected);
      }
    }
    expect(straddling).toBeGreaterThan(5000);
  });
});
