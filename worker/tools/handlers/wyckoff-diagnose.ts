/**
 * Handler of `wyckoff_diagnose` (MCP): a thin reshaping of the engine's analysis — the same one
 * `analyze_stock` computes (`symbol-analysis.ts`) — into WyckoffAgent's diagnose shape. No analysis of
 * its own: the range, triggers, phase, events, stops and targets are the engine's; this file only
 * counts the range's tests with the engine's touch rule, names the stage and picks the event label.
 */
import type { Analysis, Bar, PhaseName, TriggerType } from "../../contracts/analysis";
import { err, ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { DiagnoseEventLabel, wyckoffDiagnoseSpec } from "../specs/wyckoff-diagnose";
import { brief } from "../pure/market-stats";
import { analyzeSymbol, ANALYSIS_BARS } from "./symbol-analysis";

/** Touch tolerance of a range test (the engine's trading-range rule: 3.5% of the band). */
const TOUCH = 0.035;
/** Confidence of a live trigger the engine recorded no matching event for, by its status. */
const TRIGGER_ONLY_CONFIDENCE = { confirmed: 0.6, pending: 0.45 } as const;
/** Confidence of "no live trigger": an observation, not a setup. */
const WATCH_CONFIDENCE = 0.2;

const EVENT_OF: Record<TriggerType, string | null> = {
  spring: "Spring",
  sos: "SOS",
  lps: "LPS",
  evr: "EVR",
  compression: null,
  trend_pullback: null,
};

const STAGE_LABEL: Record<PhaseName, string> = {
  NONE: "Range_watch",
  ACC_A: "Accum_A",
  ACC_B: "Accum_B",
  ACC_C: "Accum_C",
  ACC_D: "Accum_D",
  ACC_E: "Accum_E",
  MARKUP: "Markup",
  DIST_A: "Dist_A",
  DIST_B: "Dist_B",
  DIST_C: "Dist_C",
  DIST_D: "Dist_D",
  DIST_E: "Dist_E",
  MARKDOWN: "Markdown",
};

const EVENT_TEXT: Record<DiagnoseEventLabel, { track: "right_side" | "left_side" | "watch"; action: string }> = {
  right_side_ignition: {
    track: "right_side",
    action: "Right-side sign of strength out of the range: watch whether pullbacks hold the old resistance (BU/LPS).",
  },
  accumulation_repair_resonance: {
    track: "left_side",
    action:
      "Spring with follow-through (LPS or effort-vs-result): the accumulation is repairing; watch for strength through resistance.",
  },
  spring_reclaim: {
    track: "left_side",
    action: "Spring: support was undercut and reclaimed; watch for a low-volume test that holds above the spring low.",
  },
  lps_pullback_confirm: {
    track: "left_side",
    action: "Pullback to a last point of support on drying volume: watch that support holds and demand returns.",
  },
  volume_absorption: {
    track: "left_side",
    action: "High effort, little result in the lower range: supply being absorbed; watch for a quiet test.",
  },
  sos_watch: {
    track: "right_side",
    action: "Sign of strength inside the range: watch for a close above resistance on volume.",
  },
  wyckoff_watch: { track: "watch", action: "No live trigger: observe the range; nothing to act on yet." },
};

const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Tests of the range's bands between its from/to dates: closes inside the bands that touched one. */
export function rangeTests(
  bars: readonly Bar[],
  range: NonNullable<Analysis["tradingRange"]>,
): { support: number; resistance: number } {
  let support = 0;
  let resistance = 0;
  for (const b of bars) {
    if (b.date < range.from || b.date > range.to) continue;
    if (b.close < range.support * (1 - TOUCH) || b.close > range.resistance * (1 + TOUCH)) continue;
    if (b.low <= range.support * (1 + TOUCH)) support++;
    if (b.high >= range.resistance * (1 - TOUCH)) resistance++;
  }
  return { support, resistance };
}

/** The event label from the live (not expired) triggers and the phase (WyckoffAgent's order). */
export function eventLabel(a: Pick<Analysis, "triggers" | "phase">, markup: boolean): DiagnoseEventLabel {
  const live = new Set(a.triggers.filter((t) => t.status !== "expired").map((t) => t.type));
  if (live.has("sos") && markup) return "right_side_ignition";
  if (live.has("spring") && (live.has("lps") || live.has("evr"))) return "accumulation_repair_resonance";
  if (live.has("spring")) return "spring_reclaim";
  if (live.has("lps")) return "lps_pullback_confirm";
  if (live.has("evr")) return "volume_absorption";
  if (live.has("sos")) return "sos_watch";
  return "wyckoff_watch";
}

const LABEL_TRIGGERS: Record<DiagnoseEventLabel, TriggerType[]> = {
  right_side_ignition: ["sos"],
  accumulation_repair_resonance: ["spring", "lps", "evr"],
  spring_reclaim: ["spring"],
  lps_pullback_confirm: ["lps"],
  volume_absorption: ["evr"],
  sos_watch: ["sos"],
  wyckoff_watch: [],
};

/** The diagnose view of one analysis (pure). `bars` are the ones the analysis read. */
export function diagnoseView(a: Analysis, bars: readonly Bar[]) {
  const close = a.indicators.close;
  const tr = a.tradingRange;
  const tests = tr ? rangeTests(bars, tr) : null;
  const markup = a.phase.name === "MARKUP" || (tr !== null && close >= tr.resistance);
  const label = eventLabel(a, markup);
  const used = a.triggers.filter((t) => t.status !== "expired" && LABEL_TRIGGERS[label].includes(t.type));
  const confidences = used.map((t) => {
    const type = EVENT_OF[t.type];
    const ev = type ? a.events.filter((e) => e.type === type).at(-1) : undefined;
    return ev?.confidence ?? TRIGGER_ONLY_CONFIDENCE[t.status === "confirmed" ? "confirmed" : "pending"];
  });
  const reasons = [
    `phase ${a.phase.name}${a.phase.since ? ` since ${a.phase.since}` : ""}`,
    ...used.map((t) => `${t.type} ${t.status} (${t.date}): ${t.reasons.join("; ")}`),
  ];
  if (used.length === 0) reasons.push("no live spring, SOS, LPS or EVR trigger");
  const watch: string[] = [];
  if (tr) {
    watch.push(`support ${r4(tr.support)}: a close below it breaks the range`);
    watch.push(`resistance ${r4(tr.resistance)}: a close above it on volume is the breakout`);
  }
  for (const t of a.triggers.filter((x) => x.status === "pending"))
    watch.push(`${t.type} of ${t.date} awaits confirmation`);
  if (a.stops.structural !== null) watch.push(`structural stop ${r4(a.stops.structural)}`);
  if (a.targets.pointAndFigure) watch.push(`point-and-figure target ${r4(a.targets.pointAndFigure.conservative)}`);
  return {
    asOf: a.asOf,
    close,
    trading_range:
      tr && tests
        ? {
            support: r4(tr.support),
            resistance: r4(tr.resistance),
            mid: r4((tr.support + tr.resistance) / 2),
            width_pct: Math.round(((tr.resistance - tr.support) / tr.support) * 10_000) / 100,
            support_tests: tests.support,
            resistance_tests: tests.resistance,
            quality: tr.quality,
            from: tr.from,
            to: tr.to,
            mode: tr.mode,
          }
        : null,
    triggers: a.triggers,
    stage: { phase: a.phase.name, label: STAGE_LABEL[a.phase.name], since: a.phase.since },
    event: {
      event_id: `${a.symbol}:${a.asOf}:${label}`,
      label,
      track: EVENT_TEXT[label].track,
      action: EVENT_TEXT[label].action,
      confidence: confidences.length > 0 ? Math.max(...confidences) : WATCH_CONFIDENCE,
      reasons,
      watch_points: watch,
    },
    health: { score: a.health.score, grade: a.health.grade },
    warnings: a.warnings ?? [],
  };
}

/** Reads the bars, runs the engine (with the benchmark, as analyze_stock does) and reshapes. */
export const wyckoffDiagnoseHandler: ToolHandler<typeof wyckoffDiagnoseSpec> = async (input, deps) => {
  const r = await deps.market.dailyBars(input.code, { days: ANALYSIS_BARS });
  if (!r.ok) return r;
  const { symbol, bars, provenance } = r.value;
  if (bars.length === 0) return err("insufficient_data", `no bars for ${symbol.id}`);
  const result = await analyzeSymbol(deps.market, symbol, bars);
  if (!result.ok) return result;
  const { diagnosis: _none, ...analysis } = result.value;
  return ok({
    code: symbol.code,
    name: symbol.name,
    symbol: brief(symbol),
    ...diagnoseView(analysis, bars.slice(-ANALYSIS_BARS)),
    source: provenance,
  });
};
