/**
 * numeric.ts and window-stats.ts take typed-array fast paths (no `at` per element, no comparator
 * callback, scratch buffers); their answers must equal the straightforward loops bit for bit on
 * typed and plain inputs alike, including NaN, ±Infinity, -0 and slices reaching out of range.
 */
import { describe, expect, it } from "vitest";
import { at, atOrBelowQuantile, finiteOrNull, meanOf, median, quantileOf, round } from "../../../worker/engine/numeric";
import { createRng, uniform } from "../../../worker/engine/sim/rng";
import { rollingArgExtreme, rollingMax, rollingMin } from "../../../worker/engine/window-stats";

const rng = createRng(7);

function values(n: number, kind: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const u = uniform(rng, 0, 1);
    if (kind === 1 && u < 0.04) return Number.NaN;
    if (kind === 2 && u < 0.03) return u < 0.015 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    if (kind === 3) return u < 0.3 ? (u < 0.15 ? -0 : 0) : Math.round(uniform(rng, -3, 3));
    if (kind === 4) return i % 7;
    return uniform(rng, 1e5, 9e7);
  });
}

function meanLoop(v: ArrayLike<number>, from: number, to: number): number {
  if (to <= from) return Number.NaN;
  let s = 0;
  for (let i = from; i < to; i++) s += at(v, i);
  return s / (to - from);
}

/** The comparator-callback deque window-stats.ts had before its typed pass (the reference, element for element). */
function rollingReference(v: ArrayLike<number>, n: number, better: (a: number, b: number) => boolean): Float64Array {
  const out = new Float64Array(v.length);
  const dq: number[] = [];
  let lastNaN = -1;
  for (let t = 0; t < v.length; t++) {
    const x = at(v, t);
    if (Number.isNaN(x)) lastNaN = t;
    else {
      while (dq.length > 0 && !better(at(v, dq[dq.length - 1] ?? 0), x)) dq.pop();
      dq.push(t);
    }
    const from = t - n + 1;
    while (dq.length > 0 && (dq[0] ?? 0) < from) dq.shift();
    out[t] = lastNaN >= from && lastNaN >= 0 ? Number.NaN : dq.length > 0 ? at(v, dq[0] ?? 0) : Number.NaN;
  }
  return out;
}

describe("numeric fast paths", () => {
  it("atOrBelowQuantile on a Float64Array answers as on the plain array and as the sort does", () => {
    for (let k = 0; k < 3000; k++) {
      const plain = values(1 + Math.floor(uniform(rng, 0, 300)), k % 5);
      const typed = Float64Array.from(plain);
      // Slices inside the array and, now and then, reaching before its start or past its end.
      const from = Math.floor(uniform(rng, -3, plain.length));
      const to = from + Math.floor(uniform(rng, 0, plain.length - from + 4));
      const q = [0.05, 0.2, 0.5, 0.9, uniform(rng, 0, 1)][k % 5] ?? 0.05;
      const x = k % 3 === 0 ? at(plain, Math.max(0, Math.min(plain.length - 1, to - 1))) : uniform(rng, -4, 9e7);
      const expected = x <= quantileOf(plain, from, to, q);
      expect(atOrBelowQuantile(typed, from, to, q, x), `typed ${k}`).toBe(expected);
      expect(atOrBelowQuantile(plain, from, to, q, x), `plain ${k}`).toBe(expected);
    }
  });

  it("median equals the comparator sort's middle, bit for bit (NaN, ±Infinity, -0 and holes included)", () => {
    const reference = (v: readonly number[]): number => {
      if (v.length === 0) return Number.NaN;
      const s = [...v].sort((a, b) => a - b);
      const mid = s.length >> 1;
      return s.length % 2 === 1 ? at(s, mid) : (at(s, mid - 1) + at(s, mid)) / 2;
    };
    for (const n of [0, 1, 2, 3, 8, 101, 700])
      for (let kind = 0; kind <= 4; kind++) {
        const v = values(n, kind);
        expect(Object.is(median(v), reference(v))).toBe(true);
      }
    const odd = [3, Number.POSITIVE_INFINITY, -1, 2, Number.NEGATIVE_INFINITY, 2, 7];
    expect(median(odd)).toBe(reference(odd));
    expect(median([1, 5, 3, 9])).toBe(4);
    expect(Object.is(median([-0, 0, -0]), reference([-0, 0, -0]))).toBe(true);
    const holes = [4, 1, 3, 2];
    holes[6] = 9;
    expect(Object.is(median(holes), reference(holes))).toBe(true);
  });

  it("meanOf on a Float64Array equals the indexed loop exactly (out-of-range slices give NaN)", () => {
    for (let k = 0; k < 2000; k++) {
      const plain = values(1 + Math.floor(uniform(rng, 0, 300)), k % 5);
      const typed = Float64Array.from(plain);
      const from = Math.floor(uniform(rng, -2, plain.length));
      const to = from + Math.floor(uniform(rng, 0, plain.length - from + 3));
      expect(Object.is(meanOf(typed, from, to), meanLoop(plain, from, to)), `${k}`).toBe(true);
      expect(Object.is(meanOf(plain, from, to), meanLoop(plain, from, to)), `${k}`).toBe(true);
    }
  });

  it("round and finiteOrNull equal Math.round(x × 10^d) / 10^d for every digit count", () => {
    for (let k = 0; k < 5000; k++) {
      const x = uniform(rng, -1e4, 1e4) * (k % 2 === 0 ? 1e-3 : 1);
      for (const d of [0, 1, 2, 3, 4, 6, 8, 10, 12, 2.5, -1]) {
        const f = 10 ** d;
        expect(Object.is(round(x, d), Math.round(x * f) / f), `${x} ${d}`).toBe(true);
      }
      expect(finiteOrNull(x, 6)).toBe(Math.round(x * 1e6) / 1e6);
    }
    expect(finiteOrNull(Number.NaN)).toBeNull();
    expect(finiteOrNull(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it("rollingMin / rollingMax equal the window loop on typed and plain series (NaN, ±Infinity, ±0)", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (let k = 0; k < 150; k++) {
      const plain = values(1 + Math.floor(uniform(rng, 0, 400)), k % 5);
      const n = 1 + Math.floor(uniform(rng, 0, 300));
      const refMin = rollingReference(plain, n, (a, b) => a < b);
      const refMax = rollingReference(plain, n, (a, b) => a > b);
      for (const series of [plain, Float64Array.from(plain)]) {
        const min = rollingMin(series, n);
        const max = rollingMax(series, n);
        for (let t = 0; t < plain.length; t++) {
          let lo = Number.POSITIVE_INFINITY;
          let hi = Number.NEGATIVE_INFINITY;
          for (let i = Math.max(0, t - n + 1); i <= t; i++) {
            lo = Math.min(lo, at(plain, i));
            hi = Math.max(hi, at(plain, i));
          }
          checked++;
          // Math.min/max order -0 under +0 where the deque keeps the element itself: equal as numbers
          // there, and the very element the previous comparator deque kept (the sign of a zero included).
          if (!(min[t] === lo || Object.is(min[t], lo)) || !Object.is(min[t], refMin[t]))
            mismatches.push(`min ${k} ${t}`);
          if (!(max[t] === hi || Object.is(max[t], hi)) || !Object.is(max[t], refMax[t]))
            mismatches.push(`max ${k} ${t}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20_000);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("rollingArgExtreme finds the index a strict forward (earliest) or backward (latest) scan keeps", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (let k = 0; k < 150; k++) {
      // Ties (kinds 3, 4), ±Infinity (2) and plain values; NaN (kind 1) is refused.
      const v = Float64Array.from(values(1 + Math.floor(uniform(rng, 0, 400)), [0, 2, 3, 4][k % 4] ?? 0));
      const n = 1 + Math.floor(uniform(rng, 0, 130));
      for (const sign of [1, -1] as const)
        for (const latest of [false, true]) {
          const into = new Int32Array(v.length);
          expect(rollingArgExtreme(v, n, sign, latest, into)).toBe(true);
          const better = (a: number, b: number) => (sign === 1 ? a < b : a > b);
          for (let t = 0; t < v.length; t++) {
            const from = Math.max(0, t - n + 1);
            let best = latest ? t : from;
            if (latest) for (let i = t; i >= from; i--) best = better(at(v, i), at(v, best)) ? i : best;
            else for (let i = from; i <= t; i++) best = better(at(v, i), at(v, best)) ? i : best;
            checked++;
            if (into[t] !== best) mismatches.push(`${k} sign ${sign} latest ${latest} t ${t}: ${into[t]} vs ${best}`);
          }
        }
    }
    expect(checked).toBeGreaterThan(40_000);
    expect(mismatches.slice(0, 5)).toEqual([]);
    const withNaN = Float64Array.from([3, 1, Number.NaN, 2]);
    expect(rollingArgExtreme(withNaN, 2, 1, false, new Int32Array(4))).toBe(false);
  });
});
