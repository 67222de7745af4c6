/**
 * The allocation-free order statistics of worker/engine/rolling.ts equal numeric.ts's sorting
 * reference bit for bit: random windows with ties, sorted and reversed runs, constant runs, and
 * windows holding NaN or ±Infinity (which fall back to the reference).
 */
import { describe, expect, it } from "vitest";
import { medianOf, quantileOf } from "../../../worker/engine/numeric";
import { medianFast, quantileFast } from "../../../worker/engine/rolling";
import { createRng, uniform } from "../../../worker/engine/sim/rng";

describe("rolling order statistics", () => {
  it("equal quantileOf / medianOf exactly on random windows", () => {
    const rng = createRng(42);
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(uniform(rng, 0, 320));
      const kind = trial % 5;
      const values = Array.from({ length: n }, (_, i) => {
        if (kind === 0) return Math.round(uniform(rng, 0, 8)); // many ties
        if (kind === 1) return i; // sorted
        if (kind === 2) return n - i; // reversed
        if (kind === 3) return 7; // constant
        return uniform(rng, 1e5, 9e7) * (uniform(rng, 0, 1) < 0.1 ? 3 : 1);
      });
      const series = trial % 2 === 0 ? values : Float64Array.from(values);
      const from = Math.floor(uniform(rng, 0, n));
      const to = from + Math.floor(uniform(rng, 0, n - from + 1));
      for (const q of [0, 0.1, 0.2, 0.25, 0.5, 0.7, 0.9, 1]) {
        expect(Object.is(quantileFast(series, from, to, q), quantileOf(series, from, to, q)), `${trial} q${q}`).toBe(
          true,
        );
      }
      expect(Object.is(medianFast(series, from, to), medianOf(series, from, to))).toBe(true);
    }
  });

  it("falls back to the reference when a window holds a non-finite value", () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const values = [5, 1, bad, 3, 9, 2, 8];
      for (const q of [0.2, 0.5, 0.9])
        expect(Object.is(quantileFast(values, 0, values.length, q), quantileOf(values, 0, values.length, q))).toBe(
          true,
        );
    }
    expect(quantileFast([1, 2, 3], 2, 2, 0.5)).toBeNaN();
  });
});
