/**
 * The labelled real-episode suite (test/fixtures/episodes/episodes.json) and its scorer.
 *
 * Each episode is read point in time: the engine sees the series from `CONTEXT_BARS` before the
 * episode up to `WINDOW_AFTER` bars after its last day — never further — and its events dated
 * inside the episode [from, to] are matched one-to-one to the labels: a hit is an event of one of
 * the label's accepted types within ±`TOLERANCE` bars. Recall is per label group, precision per
 * detected-event group, over the groups the labels cover comprehensively (SC/BC, AR, ST,
 * Spring/UTAD, SOS/SOW); UT, Test and the pullback events are accepted alternatives only.
 * Overlapping episodes: an event left unmatched here that an accepted type of a label in *another*
 * episode of the same symbol, overlapping this one in time, matches within ±`TOLERANCE` bars (each
 * such label at most once) is not a false positive: it counts as matched for this episode's
 * precision, never as a hit for the other episode's recall (that episode is scored on its own window).
 * Side check: at each labelled top (bottom), the phase read `SIDE_FROM`…`SIDE_TO` bars later, point
 * in time, must not be accumulation or markup (distribution).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Bar, EventType, Market, PhaseName } from "../../worker/contracts/analysis";
import { analyze } from "../../worker/engine/analyze";
import type { EngineParams } from "../../worker/engine/params";
import { indexOnOrAfter, loadRealBars } from "./real-bars";

export const TOLERANCE = 5;
export const CONTEXT_BARS = 1000;
export const WINDOW_AFTER = 15;
export const SIDE_FROM = 3;
export const SIDE_TO = 15;

export interface EpisodeLabel {
  date: string;
  types: EventType[];
  reason: string;
}

export interface Episode {
  id: string;
  symbol: string;
  market: Market;
  kind: string;
  from: string;
  to: string;
  outcome: string;
  tops: string[];
  bottoms: string[];
  labels: EpisodeLabel[];
}

export const GROUPS = ["SC/BC", "AR", "ST", "Spring/UTAD", "SOS/SOW"] as const;
export type Group = (typeof GROUPS)[number];

const GROUP_OF: Partial<Record<EventType, Group>> = {
  SC: "SC/BC",
  BC: "SC/BC",
  AR: "AR",
  ST: "ST",
  Spring: "Spring/UTAD",
  UTAD: "Spring/UTAD",
  SOS: "SOS/SOW",
  SOW: "SOS/SOW",
};

/** The group an event type is scored in, if any. */
export function groupOf(type: EventType): Group | undefined {
  return GROUP_OF[type];
}

/** Loads the suite. */
export function loadEpisodes(): Episode[] {
  const file = path.resolve(import.meta.dirname, "../fixtures/episodes/episodes.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { episodes: Episode[] }).episodes;
}

export interface Counts {
  labels: number;
  hits: number;
  detected: number;
  matched: number;
}

export interface EpisodeScore {
  id: string;
  symbol: string;
  counts: Counts;
  byGroup: Record<Group, Counts>;
  missed: string[];
  spurious: string[];
  /** Events matched by a label of an overlapping episode (see the module comment), as "date type → episode". */
  matchedElsewhere: string[];
  sideViolations: string[];
  sideChecks: number;
}

const zero = (): Counts => ({ labels: 0, hits: 0, detected: 0, matched: 0 });

function run(bars: readonly Bar[], e: Episode, params?: Partial<EngineParams>) {
  const r = analyze(bars, { symbol: e.symbol, market: e.market, ...(params ? { params } : {}) });
  if (!r.ok) throw new Error(`${e.id}: ${r.error.message}`);
  return r.value;
}

const TOP_FORBIDDEN = new Set<PhaseName>(["ACC_A", "ACC_B", "ACC_C", "ACC_D", "ACC_E", "MARKUP"]);
const BOTTOM_FORBIDDEN = new Set<PhaseName>(["DIST_A", "DIST_B", "DIST_C", "DIST_D", "DIST_E"]);

/** Other episodes of `e`'s symbol whose [from, to] overlaps e's. */
function overlapping(e: Episode, others: readonly Episode[]): Episode[] {
  return others.filter((o) => o.id !== e.id && o.symbol === e.symbol && o.from <= e.to && o.to >= e.from);
}

/** Scores one episode (see the module comment); `others` are the suite's other episodes. */
export function scoreEpisode(
  e: Episode,
  params?: Partial<EngineParams>,
  others: readonly Episode[] = [],
): EpisodeScore {
  const all = loadRealBars(e.symbol);
  const i0 = indexOnOrAfter(all, e.from);
  const i1 = indexOnOrAfter(all, e.to);
  const start = Math.max(0, i0 - CONTEXT_BARS);
  const end = Math.min(all.length, i1 + 1 + WINDOW_AFTER);
  const bars = all.slice(start, end);
  const idx = new Map(bars.map((b, i) => [b.date, i]));
  const a = run(bars, e, params);
  const det = a.events
    .filter((ev) => groupOf(ev.type) && ev.date >= e.from && ev.date <= e.to)
    .map((ev) => ({ type: ev.type, date: ev.date, index: idx.get(ev.date) ?? -1 }));
  const byGroup = Object.fromEntries(GROUPS.map((g) => [g, zero()])) as Record<Group, Counts>;
  const used = new Set<number>();
  const missed: string[] = [];
  for (const l of e.labels) {
    const g = groupOf(l.types[0] ?? "PS");
    if (!g) continue;
    byGroup[g].labels++;
    const li = idx.get(l.date) ?? indexOnOrAfter(bars, l.date);
    let best = -1;
    let bestDist = Number.POSITIVE_INFINITY;
    det.forEach((d, k) => {
      if (used.has(k) || !l.types.includes(d.type)) return;
      const dist = Math.abs(d.index - li);
      if (dist <= TOLERANCE && dist < bestDist) {
        best = k;
        bestDist = dist;
      }
    });
    if (best >= 0) {
      used.add(best);
      byGroup[g].hits++;
    } else missed.push(`${l.date} ${l.types.join("/")}`);
  }
  // Unmatched events that a label of an overlapping episode accepts (one event per foreign label).
  const foreign = overlapping(e, others).flatMap((o) =>
    o.labels
      .filter((l) => groupOf(l.types[0] ?? "PS"))
      .map((l) => ({ episode: o.id, types: l.types, index: idx.get(l.date) ?? indexOnOrAfter(bars, l.date) })),
  );
  const usedForeign = new Set<number>();
  const elsewhere = new Map<number, string>();
  det.forEach((d, k) => {
    if (used.has(k)) return;
    let best = -1;
    let bestDist = Number.POSITIVE_INFINITY;
    foreign.forEach((l, j) => {
      if (usedForeign.has(j) || !l.types.includes(d.type)) return;
      const dist = Math.abs(d.index - l.index);
      if (dist <= TOLERANCE && dist < bestDist) {
        best = j;
        bestDist = dist;
      }
    });
    if (best < 0) return;
    usedForeign.add(best);
    elsewhere.set(k, foreign[best]?.episode ?? "");
  });
  const spurious: string[] = [];
  const matchedElsewhere: string[] = [];
  det.forEach((d, k) => {
    const g = groupOf(d.type);
    if (!g) return;
    byGroup[g].detected++;
    const other = elsewhere.get(k);
    if (used.has(k)) byGroup[g].matched++;
    else if (other !== undefined) {
      byGroup[g].matched++;
      matchedElsewhere.push(`${d.date} ${d.type} → ${other}`);
    } else spurious.push(`${d.date} ${d.type}`);
  });
  const sideViolations: string[] = [];
  let sideChecks = 0;
  for (const [dates, forbidden, what] of [
    [e.tops, TOP_FORBIDDEN, "top"],
    [e.bottoms, BOTTOM_FORBIDDEN, "bottom"],
  ] as const) {
    for (const d of dates) {
      const ti = indexOnOrAfter(all, d);
      for (let k = SIDE_FROM; k <= SIDE_TO; k++) {
        const cut = ti + k;
        if (cut >= all.length) break;
        sideChecks++;
        const phase = run(all.slice(Math.max(0, cut + 1 - CONTEXT_BARS - 200), cut + 1), e, params).phase.name;
        if (forbidden.has(phase)) sideViolations.push(`${what} ${d} +${k}: ${phase}`);
      }
    }
  }
  const counts = zero();
  for (const g of GROUPS) {
    counts.labels += byGroup[g].labels;
    counts.hits += byGroup[g].hits;
    counts.detected += byGroup[g].detected;
    counts.matched += byGroup[g].matched;
  }
  return {
    id: e.id,
    symbol: e.symbol,
    counts,
    byGroup,
    missed,
    spurious,
    matchedElsewhere,
    sideViolations,
    sideChecks,
  };
}

export interface SuiteScore {
  episodes: EpisodeScore[];
  byGroup: Record<Group, Counts & { recall: number; precision: number }>;
  total: Counts & { recall: number; precision: number };
  sideViolations: number;
  sideChecks: number;
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : Number.NaN);

/** Scores every episode of the suite. */
export function scoreSuite(episodes: readonly Episode[] = loadEpisodes(), params?: Partial<EngineParams>): SuiteScore {
  const scores = episodes.map((e) => scoreEpisode(e, params, episodes));
  const byGroup = {} as SuiteScore["byGroup"];
  const total = zero();
  for (const g of GROUPS) {
    const c = zero();
    for (const s of scores) {
      c.labels += s.byGroup[g].labels;
      c.hits += s.byGroup[g].hits;
      c.detected += s.byGroup[g].detected;
      c.matched += s.byGroup[g].matched;
    }
    byGroup[g] = { ...c, recall: ratio(c.hits, c.labels), precision: ratio(c.matched, c.detected) };
    total.labels += c.labels;
    total.hits += c.hits;
    total.detected += c.detected;
    total.matched += c.matched;
  }
  return {
    episodes: scores,
    byGroup,
    total: { ...total, recall: ratio(total.hits, total.labels), precision: ratio(total.matched, total.detected) },
    sideViolations: scores.reduce((n, s) => n + s.sideViolations.length, 0),
    sideChecks: scores.reduce((n, s) => n + s.sideChecks, 0),
  };
}

/** A printable report of a suite score. */
export function formatSuite(s: SuiteScore, title = "real episodes"): string {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");
  const lines = [`${title} (±${TOLERANCE} bars)`, "group         labels hits  recall | detected matched precision"];
  for (const g of GROUPS) {
    const c = s.byGroup[g];
    lines.push(
      `${g.padEnd(12)} ${String(c.labels).padStart(6)} ${String(c.hits).padStart(4)}  ${f(c.recall)} | ${String(c.detected).padStart(8)} ${String(c.matched).padStart(7)}  ${f(c.precision)}`,
    );
  }
  lines.push(
    `${"all".padEnd(12)} ${String(s.total.labels).padStart(6)} ${String(s.total.hits).padStart(4)}  ${f(s.total.recall)} | ${String(s.total.detected).padStart(8)} ${String(s.total.matched).padStart(7)}  ${f(s.total.precision)}`,
    `side checks: ${s.sideViolations} wrong-side phases in ${s.sideChecks} point-in-time readings`,
    "",
    "episode                        hits/labels matched/detected  missed | spurious | wrong side",
  );
  for (const e of s.episodes) {
    lines.push(
      `${e.id.padEnd(30)} ${`${e.counts.hits}/${e.counts.labels}`.padStart(11)} ${`${e.counts.matched}/${e.counts.detected}`.padStart(16)}  ${e.missed.join(", ") || "-"} | ${e.spurious.join(", ") || "-"}${e.matchedElsewhere.length ? ` (matched elsewhere: ${e.matchedElsewhere.join(", ")})` : ""} | ${e.sideViolations.length ? `${e.sideViolations.length}: ${e.sideViolations.slice(0, 3).join(", ")}` : "-"}`,
    );
  }
  return lines.join("\n");
}
