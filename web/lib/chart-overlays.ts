/**
 * What the chart draws on top of the candles, computed from one analysis: event markers at their
 * bars, the trading range as a support/resistance band, phase spans, and stops/targets as price
 * lines. Pure, so the picture is tested against the same object the words come from.
 */
import type { Analysis, Bar, EventType, PhaseName } from "@contracts/analysis";
import { PHASE_SIDE_WORDS, VARIANT_WORDS, wordOf } from "@contracts/wyckoff-words";

/** A marker at a bar. */
export interface EventMarker {
  time: string;
  type: EventType;
  label: string;
  position: "aboveBar" | "belowBar";
  shape: "arrowUp" | "arrowDown" | "circle";
  color: string;
}

/** A shaded time span (phase) or price box (trading range). */
export interface Region {
  from: string;
  to: string;
  /** Price bounds; null spans the whole height. */
  top: number | null;
  bottom: number | null;
  label: string;
  color: string;
}

/** A horizontal price line. */
export interface PriceLine {
  price: number;
  title: string;
  color: string;
  dashed: boolean;
}

/** Everything the chart overlays. */
export interface ChartOverlays {
  markers: EventMarker[];
  regions: Region[];
  lines: PriceLine[];
}

const BULL = "#1f9d55";
const BEAR = "#d64545";
const NEUTRAL = "#8a6d3b";

const BULLISH: ReadonlySet<EventType> = new Set(["SC", "ST", "Spring", "Test", "SOS", "LPS", "BU", "AR"]);
const BEARISH: ReadonlySet<EventType> = new Set(["PSY", "BC", "UT", "UTAD", "SOW", "LPSY"]);
const BELOW: ReadonlySet<EventType> = new Set(["PS", "SC", "ST", "Spring", "Test", "LPS", "BU"]);

/**
 * An event variant as the reader sees it: "#3" (the third test) as is; the engine's words (a range
 * `exit` with follow-through, an `absorption` at resistance) in the UI's language.
 */
export function variantText(variant: string, lang: "zh" | "en" = "en"): string {
  return variant.startsWith("#") ? variant : wordOf(VARIANT_WORDS, variant, lang);
}

/** Markers for the events whose bar is on the chart, oldest first. */
export function eventMarkers(a: Analysis, barDates: ReadonlySet<string>, lang: "zh" | "en" = "en"): EventMarker[] {
  return a.events
    .filter((e) => barDates.has(e.date))
    .toSorted((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0))
    .map((e) => {
      const below = BELOW.has(e.type);
      const color = BULLISH.has(e.type) ? BULL : BEARISH.has(e.type) ? BEAR : NEUTRAL;
      return {
        time: e.date,
        type: e.type,
        label: e.variant
          ? `${e.type}${e.variant.startsWith("#") ? e.variant : ` ${variantText(e.variant, lang)}`}`
          : e.type,
        position: below ? "belowBar" : "aboveBar",
        shape: e.type === "EVR" ? "circle" : below ? "arrowUp" : "arrowDown",
        color,
      };
    });
}

/** Human label of a phase name (ACC_C → "Acc C"). */
export function phaseLabel(name: PhaseName, lang: "zh" | "en" = "en"): string {
  if (name === "NONE") return "—";
  const [kind, letter] = name.split("_");
  if (lang === "zh") {
    if (!letter) return name === "MARKUP" ? "上涨" : "下跌";
    return `${wordOf(PHASE_SIDE_WORDS, kind, "zh")} ${letter}`;
  }
  if (!letter) return name.charAt(0) + name.slice(1).toLowerCase();
  return `${kind === "ACC" ? "Acc" : "Dist"} ${letter}`;
}

function firstOf(a: Analysis, types: readonly EventType[], after = ""): string | null {
  const hit = a.events
    .filter((e) => types.includes(e.type) && e.date > after)
    .map((e) => e.date)
    .toSorted();
  return hit[0] ?? null;
}

/**
 * Phase spans: the earlier phases of the current structure, bounded by their defining events (A at
 * the stopping action, B at the secondary test, C at the spring/upthrust, D at the sign of
 * strength/weakness), clipped to end where the engine's current phase begins, and the current phase
 * from `phase.since` to `asOf` exactly as the engine reports it.
 */
export function phaseSpans(a: Analysis, lang: "zh" | "en" = "en"): Region[] {
  const { name, since } = a.phase;
  if (name === "NONE" || since === null) return [];
  const acc = name.startsWith("ACC") || name === "MARKUP";
  const starts: [string, string | null][] = acc
    ? [
        ["A", firstOf(a, ["PS", "SC"])],
        ["B", firstOf(a, ["ST"])],
        ["C", firstOf(a, ["Spring"])],
        ["D", firstOf(a, ["SOS"])],
      ]
    : [
        ["A", firstOf(a, ["PSY", "BC"])],
        ["B", firstOf(a, ["ST", "UT"])],
        ["C", firstOf(a, ["UTAD"])],
        ["D", firstOf(a, ["SOW"])],
      ];
  const kind = lang === "zh" ? (acc ? "吸筹" : "派发") : acc ? "Acc" : "Dist";
  const bounded = starts
    .filter((s): s is [string, string] => s[1] !== null && s[1] < since)
    .toSorted((x, y) => (x[1] < y[1] ? -1 : 1));
  const regions: Region[] = bounded.map(([letter, from], i) => ({
    from,
    to: bounded[i + 1]?.[1] ?? since,
    top: null,
    bottom: null,
    label: `${kind} ${letter}`,
    color: acc ? "rgba(31,157,85,0.06)" : "rgba(214,69,69,0.06)",
  }));
  regions.push({
    from: since,
    to: a.asOf,
    top: null,
    bottom: null,
    label: phaseLabel(name, lang),
    color: acc ? "rgba(31,157,85,0.12)" : "rgba(214,69,69,0.12)",
  });
  return regions;
}

/** Price-line titles per language (P&F and MM are the usual abbreviations in both). */
const LINE_TITLES = {
  en: { stop: "stop", trail: "trail" },
  zh: { stop: "止损", trail: "跟踪止损" },
} as const;

/** Stops and targets as price lines (only those the analysis gives). */
export function priceLines(a: Analysis, lang: "zh" | "en" = "en"): PriceLine[] {
  const lines: PriceLine[] = [];
  const title = LINE_TITLES[lang];
  if (a.stops.structural !== null)
    lines.push({ price: a.stops.structural, title: title.stop, color: BEAR, dashed: false });
  if (a.stops.trailing !== null) lines.push({ price: a.stops.trailing, title: title.trail, color: BEAR, dashed: true });
  const pf = a.targets.pointAndFigure;
  if (pf) {
    lines.push({ price: pf.conservative, title: "P&F", color: BULL, dashed: true });
    if (pf.aggressive !== null) lines.push({ price: pf.aggressive, title: "P&F+", color: BULL, dashed: true });
  }
  if (a.targets.measuredMove !== null)
    lines.push({ price: a.targets.measuredMove, title: "MM", color: BULL, dashed: true });
  return lines;
}

/** All overlays for bars (oldest first) and the analysis read from them. */
export function chartOverlays(
  a: Analysis,
  bars: readonly Pick<Bar, "date">[],
  lang: "zh" | "en" = "en",
): ChartOverlays {
  const dates = new Set(bars.map((b) => b.date));
  const regions = phaseSpans(a, lang);
  const tr = a.tradingRange;
  if (tr)
    regions.push({
      from: tr.from,
      to: tr.to,
      top: tr.resistance,
      bottom: tr.support,
      label: "TR",
      color: "rgba(64,128,255,0.14)",
    });
  return { markers: eventMarkers(a, dates, lang), regions, lines: priceLines(a, lang) };
}

/** Bars up to the analysis' `asOf` (the chart never shows what the analysis could not see). */
export function barsAsOf<B extends Pick<Bar, "date">>(bars: readonly B[], asOf: string): B[] {
  return bars.filter((b) => b.date <= asOf);
}

/** Regions clipped to the charted dates (a region starting before the first bar starts at it); empty ones dropped. */
export function clampRegions(regions: readonly Region[], first: string, last: string): Region[] {
  return regions
    .map((r) => ({ ...r, from: r.from < first ? first : r.from, to: r.to > last ? last : r.to }))
    .filter((r) => r.from <= r.to && r.to >= first && r.from <= last);
}
