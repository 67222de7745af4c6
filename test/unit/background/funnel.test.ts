/** The screening funnel's reduce phase and its building blocks, over the simulated market. */
import { describe, expect, it } from "vitest";
import { SIM_INDEX_COMPOSITE, buildSimMarket } from "../../../worker/market/offline/sim-market";
import { resolveParams } from "../../../worker/engine/params";
import { alignBenchmark } from "../../../worker/engine/relative-strength";
import { breadthFrom, reduceFunnel } from "../../../worker/engine/screen/reduce-funnel";
import { sectorResonance } from "../../../worker/engine/screen/sector-resonance";
import { amountsOf, symbolFeatures, type SymbolFeatures } from "../../../worker/engine/screen/symbol-features";
import { buildSeries } from "../../../worker/engine/series";

const sim = buildSimMarket({ seed: 7, stocks: 120, days: 330, endDate: "2026-06-30" });
const index = sim.bars.get(SIM_INDEX_COMPOSITE) ?? [];
const params = resolveParams();

function features(): SymbolFeatures[] {
  return sim.symbols
    .filter((s) => s.kind === "stock")
    .map((sym) => {
      const bars = sim.bars.get(sym.id) ?? [];
      const s = buildSeries(bars, "CN", params);
      return symbolFeatures(
        s,
        s.n - 1,
        { id: sym.id, code: sym.id, name: sym.name, industry: sym.industry, board: sym.board },
        {
          market: "CN",
          params,
          bench: alignBenchmark(s.date, index),
          triggerLookback: 5,
          breadthDays: 10,
          triggersOnlyForL2: false,
        },
        amountsOf(bars),
      );
    });
}

describe("reduceFunnel", () => {
  const feats = features();
  const o = reduceFunnel(feats, { limit: 8, index });

  it("narrows layer by layer and accounts for every rejection", () => {
    const s = o.summary;
    expect(s.total_scanned).toBe(120);
    const counts = [
      s.total_scanned,
      s.layer1_passed,
      s.layer2_passed,
      s.layer3_passed,
      s.layer4_passed,
      s.layer5_passed,
    ];
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1] ?? 0);
    const sum = (r: Record<string, number> | undefined) => Object.values(r ?? {}).reduce((a, b) => a + b, 0);
    expect(sum(o.rejections.l1)).toBe(s.total_scanned - s.layer1_passed);
    expect(sum(o.rejections.l2)).toBe(s.layer1_passed - s.layer2_passed);
    expect(sum(o.rejections.l3)).toBe(s.layer2_passed - s.layer3_passed);
    expect(sum(o.rejections.l4)).toBe(s.layer3_passed - s.layer4_passed);
    expect(sum(o.rejections.l5)).toBe(s.layer4_passed - s.layer5_passed);
  });

  it("hands only confirmed entries to a report, at most 2 per sector and `limit` in all", () => {
    expect(o.symbolsForReport.length).toBeLessThanOrEqual(8);
    const bySector = new Map<string, number>();
    for (const code of o.symbolsForReport) {
      const c = o.candidates.find((x) => x.code === code);
      expect(c?.verdict).toBe("entry");
      bySector.set(c?.industry ?? "", (bySector.get(c?.industry ?? "") ?? 0) + 1);
    }
    for (const n of bySector.values()) expect(n).toBeLessThanOrEqual(2);
  });

  it("groups L4 candidates by trigger type, best score first", () => {
    for (const list of Object.values(o.triggerGroups)) {
      for (let i = 1; i < list.length; i++) expect(list[i]?.score ?? 0).toBeLessThanOrEqual(list[i - 1]?.score ?? 0);
    }
  });

  it("blocks entries in a CRASH regime", () => {
    const crash = reduceFunnel(feats, { limit: 8, regime: { state: "CRASH", structure: "BEAR", reasons: ["test"] } });
    expect(crash.summary.layer5_passed).toBe(0);
    expect(crash.symbolsForReport).toEqual([]);
  });

  it("is deterministic: the same features give the same answer", () => {
    expect(reduceFunnel(feats, { limit: 8, index })).toEqual(o);
  });

  it("drops the markup channel without RPS leadership", () => {
    const f = feats.find((x) => x.l1.pass && x.bias200 !== null);
    expect(f).toBeDefined();
    if (!f) return;
    const weak = { ...f, channels: ["markup"], r50: -0.5, r120: -0.5, triggers: [] };
    const strong = feats.filter((x) => x.l1.pass).map((x) => ({ ...x, r50: 0.5, r120: 0.5 }));
    const r = reduceFunnel([weak, ...strong], { limit: 5 });
    expect(r.rejections.l2?.["markup without RPS leadership"]).toBeGreaterThanOrEqual(1);
  });
});

describe("sectorResonance and breadth", () => {
  it("lets every L2 passer through when fewer than 3 pass", () => {
    const r = sectorResonance(
      [
        { key: "a", sector: "x", strength: 0.1 },
        { key: "b", sector: "y", strength: 0.2 },
      ],
      new Map([
        ["x", 10],
        ["y", 10],
      ]),
    );
    expect(r.fallback).toBe(true);
    expect([...r.passed].sort()).toEqual(["a", "b"]);
  });

  it("passes any stock with strength ≥ 0.80", () => {
    const members = Array.from({ length: 12 }, (_, i) => ({
      key: `k${i}`,
      sector: `s${i % 6}`,
      strength: i === 11 ? 0.9 : 0.1,
    }));
    const r = sectorResonance(members, new Map());
    expect(r.passed.has("k11")).toBe(true);
  });

  it("computes breadth per day from the end", () => {
    const f = (a: boolean[]) => ({ aboveMa20: a }) as SymbolFeatures;
    expect(breadthFrom([f([true, false]), f([true, true])])).toEqual([{ aboveMa20: 100 }, { aboveMa20: 50 }]);
  });
});
