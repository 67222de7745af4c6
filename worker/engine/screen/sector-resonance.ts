/**
 * L3 sector resonance (PARITY.md §2.4 L3): sectors are kept on count, pass ratio and median strength
 * against the cross-sectional 70% quantiles (or as "super" sectors at the 90% strength quantile);
 * a stock passes in a top-5 sector, in a kept sector with strength ≥ 0.60, or anywhere at ≥ 0.80.
 */
import { median, quantileOf } from "../numeric";

/** One L2 passer as L3 sees it. */
export interface SectorMember {
  key: string;
  sector: string;
  strength: number;
}

/** A sector's standing. */
export interface SectorStanding {
  sector: string;
  count: number;
  passRatio: number;
  strength: number;
  kept: boolean;
}

/** L3 verdict. */
export interface SectorResult {
  passed: Set<string>;
  topSectors: SectorStanding[];
  /** True when fewer than 3 stocks passed, so every L2 passer was let through. */
  fallback: boolean;
}

/** Runs L3 over L2 passers; `l1Counts` = L1 passers per sector (for the pass ratio). */
export function sectorResonance(members: readonly SectorMember[], l1Counts: ReadonlyMap<string, number>): SectorResult {
  const bySector = new Map<string, SectorMember[]>();
  for (const m of members) {
    const list = bySector.get(m.sector);
    if (list) list.push(m);
    else bySector.set(m.sector, [m]);
  }
  const standings: SectorStanding[] = [...bySector].map(([sector, list]) => ({
    sector,
    count: list.length,
    passRatio: list.length / Math.max(1, l1Counts.get(sector) ?? list.length),
    strength: median(list.map((m) => m.strength)),
    kept: false,
  }));
  const counts = standings.map((s) => s.count);
  const ratios = standings.map((s) => s.passRatio);
  const strengths = standings.map((s) => s.strength);
  const qCount = Math.max(3, Math.ceil(quantileOf(counts, 0, counts.length, 0.7)));
  const qRatio = quantileOf(ratios, 0, ratios.length, 0.7);
  const qStrength = quantileOf(strengths, 0, strengths.length, 0.7);
  const qSuper = quantileOf(strengths, 0, strengths.length, 0.9);
  for (const s of standings) {
    const normal = s.count >= qCount && s.passRatio >= qRatio && s.strength >= qStrength;
    const superStrong = s.count >= 3 && s.strength >= qSuper;
    s.kept = normal || superStrong;
  }
  const ranked = [...standings].sort((a, b) => Number(b.kept) - Number(a.kept) || b.strength - a.strength);
  const topSectors = ranked.filter((s) => s.kept).slice(0, 5);
  const top = new Set(topSectors.map((s) => s.sector));
  const kept = new Set(standings.filter((s) => s.kept).map((s) => s.sector));
  const passed = new Set<string>();
  for (const m of members) {
    if (top.has(m.sector) || (kept.has(m.sector) && m.strength >= 0.6) || m.strength >= 0.8) passed.add(m.key);
  }
  if (passed.size < 3) {
    for (const m of members) passed.add(m.key);
    return { passed, topSectors: topSectors.length > 0 ? topSectors : ranked.slice(0, 5), fallback: true };
  }
  return { passed, topSectors, fallback: false };
}
