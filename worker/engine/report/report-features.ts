/**
 * What a research report reads about one stock (PARITY.md §2.4 Step 3): compressed features, never
 * raw K-lines — MA position and bias, a 15-day price/volume slice, the last 60 days' Wyckoff events,
 * triggers, health and stops — and the rule that places it in one of the three camps.
 */
import type { Analysis, Bar } from "../../contracts/analysis";
import type { Camp } from "../../contracts/report";
import { round } from "../numeric";

/** Compressed features of one stock. */
export interface ReportFeatures {
  code: string;
  name: string;
  asOf: string;
  close: number;
  phase: string;
  ma: { ma20: number | null; ma50: number | null; ma200: number | null; bias200Pct: number | null };
  slice15: { date: string; close: number; pctChg: number; volRatio: number | null }[];
  events60: { type: string; date: string; price: number }[];
  triggers: { type: string; date: string; status: string }[];
  health: { score: number; grade: string; reasons: string[] };
  stops: { structural: number | null; trailing: number | null };
  tradingRange: { support: number; resistance: number } | null;
}

/** Builds the features from bars and the engine's analysis of them. */
export function reportFeatures(code: string, name: string, bars: readonly Bar[], a: Analysis): ReportFeatures {
  const tail = bars.slice(-16);
  const vol20 = bars.slice(-21, -1).reduce((s, b) => s + b.volume, 0) / Math.max(1, Math.min(20, bars.length - 1));
  const slice15 = tail.slice(1).map((b, i) => {
    const prev = tail[i]?.close ?? b.close;
    return {
      date: b.date,
      close: b.close,
      pctChg: round((b.close / prev - 1) * 100, 2),
      volRatio: vol20 > 0 ? round(b.volume / vol20, 2) : null,
    };
  });
  const cutoff = bars[Math.max(0, bars.length - 60)]?.date ?? "";
  const ma200 = a.indicators.ma200;
  return {
    code,
    name,
    asOf: a.asOf,
    close: a.indicators.close,
    phase: a.phase.name,
    ma: {
      ma20: a.indicators.ma20,
      ma50: a.indicators.ma50,
      ma200,
      bias200Pct: ma200 ? round((a.indicators.close / ma200 - 1) * 100, 2) : null,
    },
    slice15,
    events60: a.events.filter((e) => e.date >= cutoff).map((e) => ({ type: e.type, date: e.date, price: e.price })),
    triggers: a.triggers.map((t) => ({ type: t.type, date: t.date, status: t.status })),
    health: { score: a.health.score, grade: a.health.grade, reasons: a.health.reasons.slice(0, 4) },
    stops: { structural: a.stops.structural, trailing: a.stops.trailing },
    tradingRange: a.tradingRange ? { support: a.tradingRange.support, resistance: a.tradingRange.resistance } : null,
  };
}

/** The camp the engine's evidence points to, with why. */
export function campOf(f: ReportFeatures): { camp: Camp; reasons: string[] } {
  const stop = Math.max(f.stops.structural ?? 0, f.stops.trailing ?? 0);
  if (f.health.grade === "danger")
    return { camp: "逻辑破产", reasons: ["health danger", ...f.health.reasons.slice(0, 2)] };
  if (/^DIST|MARKDOWN/.test(f.phase)) return { camp: "逻辑破产", reasons: [`phase ${f.phase}: supply in control`] };
  if (stop > 0 && f.close <= stop)
    return { camp: "逻辑破产", reasons: [`close ${f.close} at or under the stop ${round(stop, 2)}`] };
  const confirmed = f.triggers.filter((t) => t.status === "confirmed").map((t) => `${t.type} confirmed ${t.date}`);
  if (confirmed.length > 0 && f.health.grade === "healthy")
    return { camp: "起跳板", reasons: [...confirmed.slice(0, 2), `phase ${f.phase}`] };
  if (/^(ACC_D|ACC_E|MARKUP)$/.test(f.phase) && f.health.grade === "healthy")
    return { camp: "起跳板", reasons: [`phase ${f.phase} with healthy structure`] };
  const pending = f.triggers.filter((t) => t.status === "pending").map((t) => `${t.type} pending since ${t.date}`);
  return {
    camp: "储备营地",
    reasons:
      pending.length > 0 ? pending.slice(0, 2) : [`phase ${f.phase}, health ${f.health.grade}: wait for a trigger`],
  };
}
