/**
 * The cross-sectional half of the screening funnel (the coordinator's "reduce"): RPS ranks, the L2
 * channels that need them, L3 sector resonance, L4 live triggers, L5 confirmation and the regime
 * gate, priority allocation (≤ 2 per sector, no filler) and the per-layer counts and rejection reasons.
 */
import type { Bar } from "../../contracts/analysis";
import type { ScreenCandidate, ScreenPick, ScreenSummary } from "../../contracts/screening";
import { blocksEntries, marketRegime, type Regime, type RegimeState } from "../market-regime";
import { round } from "../numeric";
import { rpsRanks } from "../relative-strength";
import { sectorResonance } from "./sector-resonance";
import type { SymbolFeatures } from "./symbol-features";

/** Priority points (PARITY.md §2.4 allocation); evr/compression/trend-pullback points are ours. */
export const PRIORITY_POINTS: Record<string, number> = {
  markup: 100,
  sos: 50,
  spring: 45,
  lps: 40,
  accumulation: 15,
  trend_pullback: 20,
  evr: 10,
  compression: 5,
};

/** Inputs of the reduce phase besides the features. */
export interface ReduceOptions {
  /** Most symbols handed to a report. */
  limit: number;
  /** Main index bars up to the screening date (for the regime); small-cap index optional. */
  index?: readonly Bar[];
  smallCap?: readonly Bar[];
  /** A regime decided by the caller (the backtest passes one per day). */
  regime?: Regime;
  /** Most candidates kept in the result. */
  maxCandidates?: number;
}

/** The funnel's answer. */
export interface FunnelOutcome {
  asOf: string | null;
  regime: Regime;
  breadthAboveMa20Pct: number | null;
  summary: ScreenSummary;
  rejections: Record<string, Record<string, number>>;
  triggerGroups: Record<string, ScreenPick[]>;
  topSectors: { sector: string; count: number; strength: number }[];
  candidates: ScreenCandidate[];
  symbolsForReport: string[];
  notes: string[];
}

function bump(map: Record<string, number>, reason: string): void {
  map[reason] = (map[reason] ?? 0) + 1;
}

function percentiles(values: readonly (number | null)[]): number[] {
  return rpsRanks(values.map((v) => (v === null ? Number.NaN : v))).map((r) => r / 100);
}

/** Breadth series (% of the universe with close ≥ MA20), aligned from the last bar. */
export function breadthFrom(features: readonly SymbolFeatures[]): { aboveMa20: number }[] {
  const days = Math.max(0, ...features.map((f) => f.aboveMa20.length));
  const out: { aboveMa20: number }[] = [];
  for (let k = days; k >= 1; k--) {
    let n = 0;
    let up = 0;
    for (const f of features) {
      const v = f.aboveMa20[f.aboveMa20.length - k];
      if (v === undefined) continue;
      n++;
      if (v) up++;
    }
    if (n > 0) out.push({ aboveMa20: (100 * up) / n });
  }
  return out;
}

function candidateOf(f: SymbolFeatures, channels: string[], strength: number, rps50: number, rps120: number) {
  const confirmed = f.triggers.some((t) => t.status === "confirmed");
  let priority = 0;
  for (const c of channels) priority += PRIORITY_POINTS[c] ?? 0;
  for (const t of f.triggers) priority += PRIORITY_POINTS[t.type] ?? 0;
  priority += (confirmed ? 10 : 0) + strength * 10;
  const c: ScreenCandidate = {
    code: f.meta.id,
    name: f.meta.name,
    industry: f.meta.industry,
    board: f.meta.board,
    close: f.close,
    channels,
    strength: round(strength, 3),
    rps50: Number.isFinite(rps50) ? round(rps50, 1) : null,
    rps120: Number.isFinite(rps120) ? round(rps120, 1) : null,
    triggers: f.triggers.map((t) => ({
      type: t.type,
      date: t.date,
      status: t.status,
      score: t.score,
      reasons: t.reasons,
    })),
    stop: f.structuralStop,
    priority: round(priority, 2),
    verdict: "watch",
    verdictReason: "",
  };
  return { c, confirmed };
}

/** Runs L1–L5 over the map phase's features. */
export function reduceFunnel(features: readonly SymbolFeatures[], o: ReduceOptions): FunnelOutcome {
  const notes: string[] = [];
  const breadth = breadthFrom(features);
  const regime: Regime =
    o.regime ??
    (o.index && o.index.length > 0
      ? marketRegime(o.index, { ...(o.smallCap ? { smallCap: o.smallCap } : {}), breadth })
      : { state: "NEUTRAL", structure: "TRANSITION", reasons: ["no index bars: regime assumed neutral"] });
  const rej = { l1: {}, l2: {}, l3: {}, l4: {}, l5: {} } as Record<
    "l1" | "l2" | "l3" | "l4" | "l5",
    Record<string, number>
  >;
  const l1 = features.filter((f) => {
    if (!f.l1.pass) bump(rej.l1, f.l1.reason || "illiquid");
    return f.l1.pass;
  });
  const rps50 = rpsRanks(l1.map((f) => f.r50 ?? Number.NaN));
  const rps120 = rpsRanks(l1.map((f) => f.r120 ?? Number.NaN));
  const q20 = percentiles(l1.map((f) => f.r20));
  const q5 = percentiles(l1.map((f) => f.r5));
  const q3 = percentiles(l1.map((f) => f.r3));
  const l1BySector = new Map<string, number>();
  const sectorOf = (f: SymbolFeatures): string => f.meta.industry ?? "unclassified";
  for (const f of l1) l1BySector.set(sectorOf(f), (l1BySector.get(sectorOf(f)) ?? 0) + 1);

  const l2: { f: SymbolFeatures; channels: string[]; strength: number; rps50: number; rps120: number }[] = [];
  l1.forEach((f, i) => {
    const r50 = rps50[i] ?? Number.NaN;
    const r120 = rps120[i] ?? Number.NaN;
    const strength = 0.4 * (q20[i] ?? 0) + 0.3 * (q5[i] ?? 0) + 0.3 * (q3[i] ?? 0);
    if (f.bias200 === null) {
      bump(rej.l2, "needs 200 bars of history");
      return;
    }
    const rpsOk = (r50 >= 65 && r120 >= 70) || (r120 >= 80 && r50 >= 50);
    const channels = f.channels.filter((c) => c !== "markup" || rpsOk);
    const rsOk = (x: number | null, min: number) => x === null || x >= min;
    if (
      r50 <= 45 &&
      r120 >= 70 &&
      Math.abs(f.bias200) <= 0.08 &&
      (f.r20 ?? 0) <= -0.03 &&
      rsOk(f.rs10, -0.02) &&
      rsOk(f.rs3, -0.08)
    )
      channels.push("ambush");
    if (r120 >= 75 && (f.vol5to20 ?? 0) >= 0.7 && !channels.includes("markup")) channels.push("trend_continuation");
    if (r120 >= 30 && f.triggers.some((t) => t.type === "sos")) channels.push("sos_bypass");
    if (channels.length === 0) {
      bump(rej.l2, f.channels.includes("markup") ? "markup without RPS leadership" : f.l2Reason || "no L2 channel");
      return;
    }
    l2.push({ f, channels, strength, rps50: r50, rps120: r120 });
  });

  const l3 = sectorResonance(
    l2.map((x) => ({ key: x.f.meta.id, sector: sectorOf(x.f), strength: x.strength })),
    l1BySector,
  );
  if (l3.fallback) notes.push("fewer than 3 stocks passed L3, so every L2 passer went on (PARITY L3 rule)");
  const l3Passed = l2.filter((x) => {
    const pass = l3.passed.has(x.f.meta.id);
    if (!pass) bump(rej.l3, "sector not resonating and strength under 0.80");
    return pass;
  });

  const blocked = blocksEntries(regime.state as RegimeState);
  const candidates: ScreenCandidate[] = [];
  for (const x of l3Passed) {
    if (x.f.triggers.length === 0) {
      bump(rej.l4, "no live L4 trigger in the last bars");
      continue;
    }
    const { c, confirmed } = candidateOf(x.f, x.channels, x.strength, x.rps50, x.rps120);
    if (!confirmed) c.verdictReason = "awaiting next-day confirmation";
    else if (blocked) c.verdictReason = `entries blocked in regime ${regime.state}`;
    else if (c.stop !== null && c.close <= c.stop) c.verdictReason = "closed under the structural stop";
    else {
      c.verdict = "entry";
      c.verdictReason = "trigger confirmed, regime allows entries";
    }
    if (c.verdict === "watch") bump(rej.l5, c.verdictReason);
    candidates.push(c);
  }
  candidates.sort((a, b) => b.priority - a.priority || a.code.localeCompare(b.code));

  const perSector = new Map<string, number>();
  const symbolsForReport: string[] = [];
  for (const c of candidates) {
    if (c.verdict !== "entry" || symbolsForReport.length >= o.limit) continue;
    const sector = c.industry ?? "unclassified";
    if ((perSector.get(sector) ?? 0) >= 2) continue;
    perSector.set(sector, (perSector.get(sector) ?? 0) + 1);
    symbolsForReport.push(c.code);
  }
  if (symbolsForReport.length === 0 && candidates.length > 0)
    notes.push("no confirmed entries: nothing handed to a report (no filler from the watch list)");

  const triggerGroups: Record<string, ScreenPick[]> = {};
  for (const c of candidates)
    for (const t of c.triggers) (triggerGroups[t.type] ??= []).push({ code: c.code, name: c.name, score: t.score });
  for (const list of Object.values(triggerGroups)) {
    list.sort((a, b) => b.score - a.score);
    list.splice(10);
  }
  const last = breadth[breadth.length - 1];
  return {
    asOf: features.reduce<string | null>((m, f) => (m === null || f.asOf > m ? f.asOf : m), null),
    regime,
    breadthAboveMa20Pct: last ? round(last.aboveMa20, 1) : null,
    summary: {
      total_scanned: features.length,
      layer1_passed: l1.length,
      layer2_passed: l2.length,
      layer3_passed: l3Passed.length,
      layer4_passed: candidates.length,
      layer5_passed: candidates.filter((c) => c.verdict === "entry").length,
    },
    rejections: rej,
    triggerGroups,
    topSectors: l3.topSectors.map((s) => ({ sector: s.sector, count: s.count, strength: round(s.strength, 3) })),
    candidates: candidates.slice(0, o.maxCandidates ?? 50),
    symbolsForReport,
    notes,
  };
}
