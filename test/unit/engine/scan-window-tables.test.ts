/**
 * The climax and trend-range detectors answer their window questions from per-series tables
 * (rollingArgExtreme) and keep the plain scans for a series the tables cannot serve. Both ways must
 * give the same candidates and ranges on every bar: the same bars are read once through exact-length
 * columns (tables) and once through columns one slot longer (the scans), on schematics of both sides
 * and markets and on random walks.
 */
import { describe, expect, it } from "vitest";
import { climaxCandidate } from "../../../worker/engine/detect-climax";
import { trendRangeAt } from "../../../worker/engine/detect-trend-range";
import { resolveParams } from "../../../worker/engine/params";
import { buildSeries, type Series } from "../../../worker/engine/series";
import { createRng, gauss } from "../../../worker/engine/sim/rng";
import { generateSchematic } from "../../../worker/engine/sim/schematics";
import type { Bar } from "../../../worker/contracts/analysis";
import type { ScanContext } from "../../../worker/engine/structure-types";

const p = resolveParams();

/** The same values in a column one slot longer (a trailing NaN), which the tables decline. */
function loose(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length + 1).fill(Number.NaN);
  b.set(a);
  return b;
}

function walk(seed: number, n: number, tick: number): Bar[] {
  const rng = createRng(seed);
  let c = 20;
  return Array.from({ length: n }, (_, i) => {
    const o = c * (1 + 0.005 * gauss(rng));
    c = Math.max(1, c * (1 + 0.02 * gauss(rng)));
    // Rounded prices: ties between lows and highs, which the tables must break as the scans do.
    const h = Math.ceil((Math.max(o, c) * (1 + Math.abs(0.01 * gauss(rng)))) / tick) * tick;
    const l = Math.floor((Math.min(o, c) * (1 - Math.abs(0.01 * gauss(rng)))) / tick) * tick;
    const day = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
    return { date: day, open: o, high: h, low: l, close: c, volume: Math.round(1e6 * Math.exp(0.6 * gauss(rng))) };
  });
}

/** Every bar's climax candidate (reasons formatted) and trend range. */
function answers(s: Series): unknown[] {
  const ctx: ScanContext = { s, p, scale: 1 };
  const out: unknown[] = [];
  for (let t = 0; t < s.n; t++) {
    const c = climaxCandidate(ctx, t);
    out.push(c && { ...c, reasons: c.reasons() }, trendRangeAt(ctx, t));
  }
  return out;
}

describe("scan window tables", () => {
  it("give the detectors the answers of the plain window scans on every bar", () => {
    const cases: { bars: Bar[]; market: "US" | "CN" }[] = [];
    for (const kind of ["accumulation", "distribution"] as const)
      for (const market of ["US", "CN"] as const)
        for (const seed of [3, 8, 21])
          cases.push({ bars: generateSchematic({ kind, market, rng: createRng(seed) }).bars, market });
    for (const seed of [1, 2, 5, 9, 13, 17])
      for (const tick of [0.1, 0.5, 1]) cases.push({ bars: walk(seed, 600, tick), market: "US" });
    let found = 0;
    for (const { bars, market } of cases) {
      const s = buildSeries(bars, market, p);
      const scans: Series = { ...s, low: loose(s.low), high: loose(s.high) };
      const fast = answers(s);
      found += fast.filter((x) => x !== null).length;
      expect(fast).toEqual(answers(scans));
    }
    // The cases reach both detectors' answers, not only their early rejections.
    expect(found).toBeGreaterThan(50);
  });
});
