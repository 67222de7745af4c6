/**
 * `lastBarFeatures` (the screening's columnar entry point) gives the record `symbolFeatures` gives over
 * the full series at the last bar — for L1 passers and for every kind of L1 rejection (ST, price,
 * turnover), with one arena reused across symbols as a screening batch does.
 */
import { describe, expect, it } from "vitest";
import { SIM_INDEX_COMPOSITE, buildSimMarket } from "../../../worker/market/offline/sim-market";
import { resolveParams } from "../../../worker/engine/params";
import { alignBenchmark } from "../../../worker/engine/relative-strength";
import {
  amountsOf,
  lastBarFeatures,
  symbolFeatures,
  type FeatureOptions,
  type SymbolMeta,
} from "../../../worker/engine/screen/symbol-features";
import { buildSeriesFromColumns, seriesArenaSize, type BarColumns } from "../../../worker/engine/series";
import type { Bar } from "../../../worker/contracts/analysis";
import { screenFeatures } from "../../../worker/background/screen-features";
import type { Universe } from "../../../worker/background/universe";
import { benchUniverse } from "../../../bench/support/market-universe";

const sim = buildSimMarket({ seed: 11, stocks: 80, days: 330, endDate: "2026-06-30" });
const index = sim.bars.get(SIM_INDEX_COMPOSITE) ?? [];
const params = resolveParams();

function columnsOf(bars: readonly Bar[]): BarColumns {
  return {
    date: bars.map((b) => b.date),
    open: Float64Array.from(bars, (b) => b.open),
    high: Float64Array.from(bars, (b) => b.high),
    low: Float64Array.from(bars, (b) => b.low),
    close: Float64Array.from(bars, (b) => b.close),
    volume: Float64Array.from(bars, (b) => b.volume),
    amount: amountsOf(bars),
  };
}

/** Scales a series' prices and volumes (to push it under an L1 threshold). */
function scaled(bars: readonly Bar[], price: number, volume: number): Bar[] {
  return bars.map((b) => ({
    ...b,
    open: b.open * price,
    high: b.high * price,
    low: b.low * price,
    close: b.close * price,
    volume: b.volume * volume,
    ...(b.amount === undefined ? {} : { amount: b.amount * price * volume }),
  }));
}

describe("lastBarFeatures", () => {
  const stocks = sim.symbols.filter((s) => s.kind === "stock");
  const cases: { meta: SymbolMeta; bars: Bar[] }[] = [];
  for (const [k, sym] of stocks.entries()) {
    const bars = sim.bars.get(sym.id) ?? [];
    const meta = { id: sym.id, code: sym.id, name: sym.name, industry: sym.industry, board: sym.board };
    cases.push({ meta, bars });
    if (k % 4 === 0) cases.push({ meta: { ...meta, name: `*ST ${sym.name}` }, bars });
    if (k % 4 === 1) cases.push({ meta, bars: scaled(bars, 0.02, 1) });
    if (k % 4 === 2) cases.push({ meta, bars: scaled(bars, 1, 0.001).map(({ amount: _, ...b }) => b) });
    if (k % 4 === 3) cases.push({ meta, bars: bars.slice(-150) });
  }
  const options = (c: BarColumns): FeatureOptions => ({
    market: "CN",
    params,
    bench: alignBenchmark(c.date, index),
    triggerLookback: 5,
    breadthDays: 10,
    triggersOnlyForL2: false,
  });

  it("equals symbolFeatures over the whole series at the last bar, passers and every L1 rejection", () => {
    const arena = new Float64Array(seriesArenaSize(330));
    const reasons = new Set<string>();
    let passed = 0;
    for (const { meta, bars } of cases) {
      const c = columnsOf(bars);
      const s = buildSeriesFromColumns(c, "CN", params);
      const want = symbolFeatures(s, s.n - 1, meta, options(c), c.amount);
      const got = lastBarFeatures(c, meta, options(c), arena);
      expect(got).toEqual(want);
      if (want.l1.pass) passed++;
      else reasons.add(want.l1.reason);
    }
    // The cases cover both paths and every L1 rejection kind.
    expect(passed).toBeGreaterThan(10);
    expect(reasons).toEqual(
      new Set(["ST or delisting risk", "price under 2 CNY", "20-day average turnover under 50 mn CNY"]),
    );
  });

  it("works without an arena", () => {
    const found = cases[2];
    if (!found) throw new Error("no case");
    const { meta, bars } = found;
    const c = columnsOf(bars);
    const s = buildSeriesFromColumns(c, "CN", params);
    expect(lastBarFeatures(c, meta, options(c))).toEqual(symbolFeatures(s, s.n - 1, meta, options(c), c.amount));
  });
});

describe("screenFeatures over a whole market", () => {
  it("reads the store in parts of at most 500 symbols, with the features of batch-sized calls", async () => {
    const u = benchUniverse(1100, 260);
    const byId = new Map(u.symbols.map((s, i) => [s.id, columnsOf(u.bars[i] ?? [])]));
    const reads: number[] = [];
    const cache = {
      async getColumnsMany(ids: readonly string[]) {
        reads.push(ids.length);
        return ids.flatMap((id) => {
          const columns = byId.get(id);
          return columns ? [{ symbolId: id, columns }] : [];
        });
      },
    };
    const universe: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };
    const whole = await screenFeatures(cache, u.symbols, universe, u.index);
    expect(reads).toEqual([500, 500, 100]);
    const batched = [];
    for (let i = 0; i < u.symbols.length; i += 100)
      batched.push(...(await screenFeatures(cache, u.symbols.slice(i, i + 100), universe, u.index)));
    expect(whole).toEqual(batched);
    expect(whole.filter((f) => f.l1.pass).length).toBeGreaterThan(100);
  });
});
