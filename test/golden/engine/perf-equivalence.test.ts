/**
 * Results stay identical under the performance work: the screening funnel (features digest and the
 * full reduce outcome), backtests (every metric, NAV and trade list) and `analyze()` outputs on fixed
 * seeded universes equal the golden file captured from the straightforward implementation.
 * `UPDATE_PERF_GOLDEN=1` rewrites the file (only when a change of results is intended).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atOrBelowQuantile, quantileOf } from "../../../worker/engine/numeric";
import { createRng, uniform } from "../../../worker/engine/sim/rng";
import { rollingMax, rollingMin } from "../../../worker/engine/window-stats";
import {
  decodeBarChunk,
  decodeBarColumns,
  decodeBarColumnsMany,
  encodeBarChunks,
} from "../../../worker/lib/bar-chunks";
import { computeGolden, digest, walk } from "./perf-golden";

const FILE = path.resolve(import.meta.dirname, "perf-golden.json");

describe("performance equivalence with the golden outputs", () => {
  it("screening, backtests and analyze() are unchanged", async () => {
    const raw = await computeGolden();
    // Trade lists and NAV curves are compared by digest (the metrics stay readable in the file).
    const backtests = Object.fromEntries(
      Object.entries(raw.backtests).map(([k, r]) => [
        k,
        r && { ...r, trade_list: digest(r.trade_list), nav: digest(r.nav) },
      ]),
    );
    const now = JSON.parse(JSON.stringify({ ...raw, backtests })) as typeof raw;
    if (process.env.UPDATE_PERF_GOLDEN) writeFileSync(FILE, `${JSON.stringify(now, null, 1)}\n`);
    const golden = JSON.parse(readFileSync(FILE, "utf8")) as typeof now;
    expect(now.analyze).toEqual(golden.analyze);
    expect(now.screening.walk.outcome).toEqual(golden.screening.walk.outcome);
    expect(now.screening.sim.outcome).toEqual(golden.screening.sim.outcome);
    expect(now.screening.walk.featuresDigest).toBe(golden.screening.walk.featuresDigest);
    expect(now.screening.sim.featuresDigest).toBe(golden.screening.sim.featuresDigest);
    for (const key of Object.keys(golden.backtests)) expect(now.backtests[key], key).toEqual(golden.backtests[key]);
    expect(Object.keys(now.backtests).sort()).toEqual(Object.keys(golden.backtests).sort());
  }, 300_000);
});

describe("optimised primitives equal the straightforward loops on random series", () => {
  const rng = createRng(42);
  const series = (n: number, ties: boolean) =>
    Array.from({ length: n }, () => {
      if (uniform(rng, 0, 1) < 0.03) return Number.NaN;
      const v = uniform(rng, 0, 100);
      return ties ? Math.round(v / 10) : v;
    });

  it("rollingMin / rollingMax", () => {
    for (let k = 0; k < 200; k++) {
      const v = series(1 + Math.floor(uniform(rng, 0, 300)), k % 2 === 0);
      const n = 1 + Math.floor(uniform(rng, 0, 260));
      const min = rollingMin(v, n);
      const max = rollingMax(v, n);
      v.forEach((_, t) => {
        let lo = Number.POSITIVE_INFINITY;
        let hi = Number.NEGATIVE_INFINITY;
        for (let i = Math.max(0, t - n + 1); i <= t; i++) {
          lo = Math.min(lo, v[i] ?? Number.NaN);
          hi = Math.max(hi, v[i] ?? Number.NaN);
        }
        expect(Object.is(min[t], lo)).toBe(true);
        expect(Object.is(max[t], hi)).toBe(true);
      });
    }
  });

  it("atOrBelowQuantile", () => {
    for (let k = 0; k < 3000; k++) {
      const v = series(1 + Math.floor(uniform(rng, 0, 260)), k % 2 === 0).map((x) =>
        k % 3 === 0 ? x : Math.abs(x) || 1,
      );
      const from = Math.floor(uniform(rng, 0, v.length));
      const to = from + Math.floor(uniform(rng, 0, v.length - from + 1));
      const q = [0.05, 0.2, 0.5, 0.9, uniform(rng, 0, 1)][k % 5] ?? 0.05;
      const x = k % 4 === 0 ? (v[Math.min(v.length - 1, to)] ?? 0) : uniform(rng, -5, 105);
      expect(atOrBelowQuantile(v, from, to, q, x)).toBe(x <= quantileOf(v, from, to, q));
    }
  });

  it("decodeBarColumns equals decoding bars and slicing (corrupt chunks skipped, amounts NaN when missing)", () => {
    const bars = walk(
      rng,
      Array.from(
        { length: 700 },
        (_, i) => `${2020 + Math.floor(i / 250)}-01-${String((i % 250) + 1).padStart(3, "0")}`,
      ),
    );
    const texts = encodeBarChunks(bars.map((b, i) => (i % 7 === 0 ? { ...b, amount: undefined } : b))).map(
      (c) => c.bars,
    );
    texts.splice(1, 1, "{not json");
    const many = decodeBarColumnsMany([texts, texts.slice(0, 1), []], 320);
    for (const [cols, source, lastBars] of [
      [decodeBarColumns(texts), texts, Number.POSITIVE_INFINITY],
      [many[0], texts, 320],
      [many[1], texts.slice(0, 1), 320],
      [many[2], [], 320],
    ] as const) {
      const expected = source.flatMap(decodeBarChunk).slice(-lastBars);
      expect(cols?.close.length).toBe(expected.length);
      expected.forEach((b, i) => {
        expect([cols?.date[i], cols?.open[i], cols?.high[i], cols?.low[i], cols?.close[i], cols?.volume[i]]).toEqual([
          b.date,
          b.open,
          b.high,
          b.low,
          b.close,
          b.volume,
        ]);
        expect(Object.is(cols?.amount[i], b.amount ?? Number.NaN)).toBe(true);
      });
    }
  });
});
