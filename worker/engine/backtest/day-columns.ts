/**
 * A block of replay days as columns (the single-call path): each day's L1 passers, in universe
 * order, as one slot per passer in typed columns — the returns, bias, relative strength and volume
 * ratio the reduce ranks (NaN where the features say null) and the L2 channel bits — plus the few
 * passers with a live trigger, kept whole with their trade. The columns are allocated once per
 * replay and refilled block after block, so a symbol-day leaves no object behind.
 *
 * `dayCandidates` is the reduce's candidate list on these columns: the same candidates in the same
 * order as `reduceFunnel(...).candidates` over the day's features (RPS and strength percentiles over
 * the L1 passers, the L2 channels that need RPS, L3 sector resonance, L4 triggers, priority), for
 * the fields the day replay reads (code, industry). backtest-paths.test.ts holds it to the row path,
 * which runs `reduceFunnel` itself.
 */
import { round } from "../numeric";
import { rpsRanksInto } from "../relative-strength";
import { PRIORITY_POINTS } from "../screen/reduce-funnel";
import { sectorResonance, type SectorMember } from "../screen/sector-resonance";
import type { SymbolFeatures, SymbolMeta } from "../screen/symbol-features";
import { CHANNELS, type TradeRow } from "./symbol-days";

/** A passer with a live trigger: its features (triggers, stop) and the trade it would make (null: unfillable). */
export interface LitRow {
  f: SymbolFeatures;
  trade: TradeRow | null;
}

/** Channel bits of a day's slot: CHANNELS' four (as l2Channels finds them), then the reduce's three. */
const AMBUSH = 1 << 4;
const TREND_CONTINUATION = 1 << 5;
const SOS_BYPASS = 1 << 6;
const MARKUP = 1;
const ALL_CHANNELS = [...CHANNELS, "ambush", "trend_continuation", "sos_bypass"] as const;
/** Priority points of each channel mask, summed in the channel order reduceFunnel sums them. */
const MASK_POINTS: readonly number[] = Array.from({ length: 1 << ALL_CHANNELS.length }, (_, mask) => {
  let p = 0;
  ALL_CHANNELS.forEach((c, i) => {
    if (mask & (1 << i)) p += PRIORITY_POINTS[c] ?? 0;
  });
  return p;
});

/** The columns of a block of days over a universe of `cap` symbols. */
export interface DayColumns {
  days: number;
  cap: number;
  /** Per day: symbols with a bar past the warm-up, those closing ≥ MA20, and L1 passers (slots used). */
  eligible: Int32Array;
  above: Int32Array;
  count: Int32Array;
  /** Per slot (day × cap + passer): the symbol's place in the universe and its own L2 channel bits. */
  sym: Int32Array;
  mask: Uint8Array;
  r3: Float64Array;
  r5: Float64Array;
  r20: Float64Array;
  r50: Float64Array;
  r120: Float64Array;
  bias200: Float64Array;
  rs10: Float64Array;
  rs3: Float64Array;
  vol5to20: Float64Array;
  /** Passers with a live trigger, by slot. */
  lit: Map<number, LitRow>;
}

/** Columns for `days` days of `cap` symbols. */
export function dayColumns(days: number, cap: number): DayColumns {
  const size = Math.max(1, days * cap);
  return {
    days,
    cap,
    eligible: new Int32Array(days),
    above: new Int32Array(days),
    count: new Int32Array(days),
    sym: new Int32Array(size),
    mask: new Uint8Array(size),
    r3: new Float64Array(size),
    r5: new Float64Array(size),
    r20: new Float64Array(size),
    r50: new Float64Array(size),
    r120: new Float64Array(size),
    bias200: new Float64Array(size),
    rs10: new Float64Array(size),
    rs3: new Float64Array(size),
    vol5to20: new Float64Array(size),
    lit: new Map(),
  };
}

/** Empties the columns for the next block. */
export function clearDayColumns(c: DayColumns): void {
  c.eligible.fill(0);
  c.above.fill(0);
  c.count.fill(0);
  c.lit.clear();
}

const nullAsNaN = (x: number | null): number => (x === null ? Number.NaN : x);

/** Adds symbol `sym`'s answer on day `d` of the block (in universe order within the day). */
export function addSymbolDay(
  c: DayColumns,
  d: number,
  sym: number,
  above: boolean,
  f: SymbolFeatures | null,
  trade: TradeRow | null | 0,
): void {
  c.eligible[d] = (c.eligible[d] ?? 0) + 1;
  if (above) c.above[d] = (c.above[d] ?? 0) + 1;
  if (!f) return;
  const n = c.count[d] ?? 0;
  c.count[d] = n + 1;
  const i = d * c.cap + n;
  c.sym[i] = sym;
  let mask = 0;
  for (const ch of f.channels) mask |= 1 << CHANNELS.indexOf(ch as (typeof CHANNELS)[number]);
  c.mask[i] = mask;
  c.r3[i] = nullAsNaN(f.r3);
  c.r5[i] = nullAsNaN(f.r5);
  c.r20[i] = nullAsNaN(f.r20);
  c.r50[i] = nullAsNaN(f.r50);
  c.r120[i] = nullAsNaN(f.r120);
  c.bias200[i] = nullAsNaN(f.bias200);
  c.rs10[i] = nullAsNaN(f.rs10);
  c.rs3[i] = nullAsNaN(f.rs3);
  c.vol5to20[i] = nullAsNaN(f.vol5to20);
  if (f.triggers.length > 0 && trade !== 0) c.lit.set(i, { f, trade });
}

/** A candidate as the day replay reads it. */
export interface DayCandidate {
  code: string;
  industry: string | null;
  /** The slot it came from (its trade is `lit.get(slot).trade`). */
  slot: number;
}

/** Reusable per-day buffers of `dayCandidates`. */
let rank = new Float64Array(0);

function buffers(n: number): Float64Array {
  if (rank.length < 5 * n) rank = new Float64Array(Math.max(5 * n, 2 * rank.length));
  return rank;
}

/** The reduce's candidates of day `d` (reduceFunnel's order, at most `maxCandidates`). */
export function dayCandidates(
  c: DayColumns,
  d: number,
  metaOf: (sym: number) => SymbolMeta,
  maxCandidates: number,
): DayCandidate[] {
  const n = c.count[d] ?? 0;
  const base = d * c.cap;
  const buf = buffers(n);
  const view = (col: Float64Array) => col.subarray(base, base + n);
  const rps50 = rpsRanksInto(view(c.r50), n, buf.subarray(0, n));
  const rps120 = rpsRanksInto(view(c.r120), n, buf.subarray(n, 2 * n));
  const q20 = rpsRanksInto(view(c.r20), n, buf.subarray(2 * n, 3 * n));
  const q5 = rpsRanksInto(view(c.r5), n, buf.subarray(3 * n, 4 * n));
  const q3 = rpsRanksInto(view(c.r3), n, buf.subarray(4 * n, 5 * n));
  const l1BySector = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const sector = metaOf(c.sym[base + i] as number).industry ?? "unclassified";
    l1BySector.set(sector, (l1BySector.get(sector) ?? 0) + 1);
  }
  const members: SectorMember[] = [];
  const l2: { i: number; mask: number; strength: number; meta: SymbolMeta }[] = [];
  for (let i = 0; i < n; i++) {
    const s = base + i;
    const bias200 = c.bias200[s] as number;
    if (Number.isNaN(bias200)) continue;
    const r50 = rps50[i] as number;
    const r120 = rps120[i] as number;
    const strength =
      0.4 * ((q20[i] as number) / 100) + 0.3 * ((q5[i] as number) / 100) + 0.3 * ((q3[i] as number) / 100);
    const rpsOk = (r50 >= 65 && r120 >= 70) || (r120 >= 80 && r50 >= 50);
    let mask = c.mask[s] as number;
    if (!rpsOk) mask &= ~MARKUP;
    const r20 = c.r20[s] as number;
    const rs10 = c.rs10[s] as number;
    const rs3 = c.rs3[s] as number;
    if (
      r50 <= 45 &&
      r120 >= 70 &&
      Math.abs(bias200) <= 0.08 &&
      (Number.isNaN(r20) ? 0 : r20) <= -0.03 &&
      (Number.isNaN(rs10) || rs10 >= -0.02) &&
      (Number.isNaN(rs3) || rs3 >= -0.08)
    )
      mask |= AMBUSH;
    const vol = c.vol5to20[s] as number;
    if (r120 >= 75 && (Number.isNaN(vol) ? 0 : vol) >= 0.7 && (mask & MARKUP) === 0) mask |= TREND_CONTINUATION;
    const lit = c.lit.get(s);
    if (r120 >= 30 && lit && lit.f.triggers.some((t) => t.type === "sos")) mask |= SOS_BYPASS;
    if (mask === 0) continue;
    const meta = metaOf(c.sym[s] as number);
    members.push({ key: meta.id, sector: meta.industry ?? "unclassified", strength });
    l2.push({ i: s, mask, strength, meta });
  }
  const l3 = sectorResonance(members, l1BySector);
  const candidates: (DayCandidate & { priority: number })[] = [];
  for (const x of l2) {
    const lit = c.lit.get(x.i);
    if (!lit || !l3.passed.has(x.meta.id)) continue;
    const confirmed = lit.f.triggers.some((t) => t.status === "confirmed");
    let priority = MASK_POINTS[x.mask] ?? 0;
    for (const t of lit.f.triggers) priority += PRIORITY_POINTS[t.type] ?? 0;
    priority += (confirmed ? 10 : 0) + x.strength * 10;
    candidates.push({ code: x.meta.id, industry: x.meta.industry, slot: x.i, priority: round(priority, 2) });
  }
  candidates.sort((a, b) => b.priority - a.priority || a.code.localeCompare(b.code));
  return candidates.slice(0, maxCandidates);
}
