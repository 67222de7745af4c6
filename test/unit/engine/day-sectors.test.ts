/**
 * daySectors (the backtest's L3 on a day's columns) must give every member the verdict
 * `sectorResonance` gives it with unique keys: the same standings, medians, quantiles, top five and
 * the fallback when fewer than three pass — on random days with few and many sectors, tied and NaN
 * strengths, sectors first seen out of number order and L1 counts above the members'.
 */
import { describe, expect, it } from "vitest";
import { daySectors } from "../../../worker/engine/backtest/day-sectors";
import { sectorResonance, type SectorMember } from "../../../worker/engine/screen/sector-resonance";
import { createRng, uniform } from "../../../worker/engine/sim/rng";

const rng = createRng(33);

function day(m: number, sectors: number, kind: number) {
  const sectorOf = new Int32Array(m);
  const strength = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    // Sector numbers drawn unevenly, so first appearance is not number order.
    sectorOf[j] = Math.floor(sectors * uniform(rng, 0, 1) ** (kind === 2 ? 3 : 1));
    const u = uniform(rng, 0, 1);
    strength[j] =
      kind === 1 && u < 0.1 ? Number.NaN : kind === 3 ? Math.round(uniform(rng, 0, 10)) / 10 : uniform(rng, 0, 1);
  }
  const l1Count = new Int32Array(sectors);
  for (let j = 0; j < m; j++) l1Count[sectorOf[j] as number] = (l1Count[sectorOf[j] as number] ?? 0) + 1;
  for (let k = 0; k < sectors; k++)
    if ((l1Count[k] ?? 0) > 0) l1Count[k] = (l1Count[k] ?? 0) + Math.floor(uniform(rng, 0, 40));
  return { sectorOf, strength, l1Count };
}

describe("daySectors", () => {
  it("passes exactly the members sectorResonance passes", () => {
    let fallbacks = 0;
    let partial = 0;
    for (const m of [0, 1, 2, 3, 5, 12, 60, 400, 3000])
      for (const sectors of [1, 4, 9, 40])
        for (let kind = 0; kind <= 3; kind++) {
          const { sectorOf, strength, l1Count } = day(m, sectors, kind);
          const names = Array.from({ length: sectors }, (_, k) => `sector ${k}`);
          const members: SectorMember[] = Array.from({ length: m }, (_, j) => ({
            key: `S${j}`,
            sector: names[sectorOf[j] as number] ?? "",
            strength: strength[j] as number,
          }));
          const l1 = new Map<string, number>();
          names.forEach((name, k) => {
            if ((l1Count[k] ?? 0) > 0) l1.set(name, l1Count[k] ?? 0);
          });
          const want = sectorResonance(members, l1);
          const got = daySectors(m, sectorOf, strength, l1Count, sectors);
          const verdicts = members.map((_, j) => got.passes(j));
          expect(verdicts).toEqual(members.map((x) => want.passed.has(x.key)));
          if (want.fallback) fallbacks++;
          else if (want.passed.size < m) partial++;
        }
    // Both branches are exercised: the fallback and days where some members fail.
    expect(fallbacks).toBeGreaterThan(5);
    expect(partial).toBeGreaterThan(20);
  });
});
