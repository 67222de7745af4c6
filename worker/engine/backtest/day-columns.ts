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
import type { Market, TriggerStatus, TriggerType } from "../../contracts/analysis";
import { l2Channels, type L2Input } from "../funnel";
import { at, round } from "../numeric";
import { BOARD_SCALE } from "../params";
import { rpsRanksInto } from "../relative-strength";
import { PRIORITY_POINTS } from "../screen/reduce-funnel";
import { sectorResonance, type SectorMember } from "../screen/sector-resonance";
import type { SymbolMeta } from "../screen/symbol-features";
import { confirmTrigger, triggersAt } from "../triggers";
import { daySectors } from "./day-sectors";
import { simulateTrade, type TradeRules } from "./simulate-trade";
import { CHANNELS, type BacktestSymbol, type DayContext, type TradeRow } from "./symbol-days";

/** A live trigger as the reduce reads it. */
export interface DayTrigger {
  type: TriggerType;
  status: TriggerStatus;
}

/** A passer with a live trigger: its triggers and the trade it would make (null: unfillable). */
export interface LitRow {
  triggers: DayTrigger[];
  trade: TradeRow | null;
}

/** Channel bits of a day's slot: CHANNELS' four (as l2Channels finds them), then the reduce's three. */
const AMBUSH = 1 << 4;
const TREND_CONTINUATION = 1 << 5;
const SOS_BYPASS = 1 << 6;
const MARKUP = 1;
const ALL_CHANNELS = [...CHANNELS, "ambush", "trend_continuation", "sos_bypass"] as const;
/** Priority points of each channel mask (integers: their sum is the one reduceFunnel adds up in its order). */
const MASK_POINTS: readonly number[] = Array.from({ length: 1 << ALL_CHANNELS.length }, (_, mask) => {
  let p = 0;
  ALL_CHANNELS.forEach((c, i) => {
    if (mask & (1 << i)) p += PRIORITY_POINTS[c] ?? 0;
  });
  return p;
});

/**
 * A slot's record in `rec` (REC doubles): the symbol's place in the universe, its own L2 channel
 * bits, then the features (NaN where they are null). One record per passer keeps a symbol-day's
 * writes on one cache line and a day's passers in one run of memory.
 */
const SYM = 0;
const MASK = 1;
const R3 = 2;
const R5 = 3;
const R20 = 4;
const R50 = 5;
const R120 = 6;
const BIAS200 = 7;
const RS10 = 8;
const RS3 = 9;
const VOL5TO20 = 10;
const REC = 11;

/** The columns of a block of days over a universe. */
export interface DayColumns {
  days: number;
  /** Symbols of the universe (slots a day can hold). */
  cap: number;
  /** Per symbol: its sector's number in `sectors` (industry, or "unclassified"). */
  sectorOf: Int32Array;
  sectors: string[];
  /** Per day: symbols with a bar past the warm-up, those closing ≥ MA20, and L1 passers (slots used). */
  eligible: Int32Array;
  above: Int32Array;
  count: Int32Array;
  /** Slot records, day × cap + passer. */
  rec: Float64Array;
  /** Passers with a live trigger, in the order written; a slot's number here + 1 is its MASK / 16. */
  lit: LitRow[];
}

/** Columns for `days` days of the universe `metas`. */
export function dayColumns(days: number, metas: readonly SymbolMeta[]): DayColumns {
  const cap = metas.length;
  const sectors: string[] = [];
  const number = new Map<string, number>();
  const sectorOf = Int32Array.from(metas, (m) => {
    const sector = m.industry ?? "unclassified";
    let k = number.get(sector);
    if (k === undefined) {
      k = sectors.length;
      sectors.push(sector);
      number.set(sector, k);
    }
    return k;
  });
  return {
    days,
    cap,
    sectorOf,
    sectors,
    eligible: new Int32Array(days),
    above: new Int32Array(days),
    count: new Int32Array(days),
    rec: new Float64Array(Math.max(1, days * cap * REC)),
    lit: [],
  };
}

/** The live-trigger row of a slot, if it has one. */
export function litOf(c: DayColumns, slot: number): LitRow | undefined {
  const k = ((c.rec[slot * REC + MASK] as number) >> 4) - 1;
  return k >= 0 ? c.lit[k] : undefined;
}

/** The symbol (place in the universe) of a slot. */
export function slotSymbol(c: DayColumns, slot: number): number {
  return c.rec[slot * REC + SYM] as number;
}

/** Empties the columns for the next block. */
export function clearDayColumns(c: DayColumns): void {
  c.eligible.fill(0);
  c.above.fill(0);
  c.count.fill(0);
  c.lit.length = 0;
}

/** `finiteOrNull(x, 6)` with null as NaN: round(x, 6) (Math.round(x × 10⁶) / 10⁶) where x is finite. */
function r6(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : Number.NaN;
}

/**
 * A passer's features written into its record at `r`: the returns, bias, relative strength and
 * volume ratio `symbolDayFeatures` gives (NaN where it says null), computed as its helpers compute
 * them — k-bar returns, `relativeReturn`, `meanOf`'s in-order sums, `finiteOrNull`'s rounding —
 * in one small function over typed arrays, so no double is boxed on its way into the record.
 */
function writeFeatures(rec: Float64Array, r: number, s: BacktestSymbol["s"], bench: Float64Array, t: number): void {
  const c = s.close;
  const close = c[t] as number;
  rec[r + R3] = t >= 3 ? r6(close / (c[t - 3] as number) - 1) : Number.NaN;
  rec[r + R5] = t >= 5 ? r6(close / (c[t - 5] as number) - 1) : Number.NaN;
  rec[r + R20] = t >= 20 ? r6(close / (c[t - 20] as number) - 1) : Number.NaN;
  rec[r + R50] = t >= 50 ? r6(close / (c[t - 50] as number) - 1) : Number.NaN;
  rec[r + R120] = t >= 120 ? r6(close / (c[t - 120] as number) - 1) : Number.NaN;
  rec[r + BIAS200] = r6(close / at(s.sma200, t) - 1);
  const b = at(bench, t);
  rec[r + RS10] = t >= 10 ? r6(close / at(c, t - 10) - b / at(bench, t - 10)) : Number.NaN;
  rec[r + RS3] = t >= 3 ? r6(close / at(c, t - 3) - b / at(bench, t - 3)) : Number.NaN;
  if (t >= 20) {
    const v = s.volume;
    let s5 = 0;
    for (let i = t - 4; i <= t; i++) s5 += v[i] as number;
    let s20 = 0;
    for (let i = t - 19; i <= t; i++) s20 += v[i] as number;
    const x = s5 / 5 / (s20 / 20);
    rec[r + VOL5TO20] = Number.isFinite(x) ? Math.round(x * 1e4) / 1e4 : Number.NaN;
  } else rec[r + VOL5TO20] = Number.NaN;
}

/** What a symbol's days need besides the day: its L2 inputs and trade rules, built once per preparation. */
export interface ColumnSymbol {
  p: BacktestSymbol;
  /** Named as ST or at delisting risk (never passes L1). */
  st: boolean;
  /** Trigger threshold scale of its board. */
  scale: number;
  l2: L2Input;
  rules: TradeRules;
}

/** The per-day constants of a prepared symbol (symbolFeatures' options for the backtest). */
export function columnSymbol(p: BacktestSymbol, ctx: DayContext): ColumnSymbol {
  return {
    p,
    st: /ST/i.test(p.meta.name),
    scale: ctx.market === "CN" ? BOARD_SCALE[p.meta.board ?? "main"] : 1,
    l2: { bench: p.bench, windows: p.windows },
    rules: { ...ctx.rules, lastIndex: p.s.n - 1 },
  };
}

/**
 * Symbol `sym` on bar t, written as day `d` of the block: the breadth counts, and for an L1 passer
 * its slot — what `symbolDayFeatures` answers (symbolFeatures with one breadth day, triggers of bar
 * t only and only for L2 passers, the trade of a symbol with a live trigger), computed the same way
 * without the features object. backtest-paths.test.ts holds it to the row path, which calls
 * symbolFeatures itself.
 */
export function columnsDay(c: DayColumns, d: number, sym: number, x: ColumnSymbol, t: number, market: Market): void {
  const s = x.p.s;
  const close = s.close[t] as number;
  c.eligible[d] = (c.eligible[d] ?? 0) + 1;
  if (close >= (s.sma20[t] as number)) c.above[d] = (c.above[d] ?? 0) + 1;
  if (x.st) return;
  // l1Liquidity without a market cap: the 20-day mean amount (close × volume where it is missing).
  const amounts = x.p.amounts;
  let amt = 0;
  const from = Math.max(0, t - 19);
  for (let i = from; i <= t; i++) {
    const a = at(amounts, i);
    amt += Number.isFinite(a) ? a : at(s.close, i) * at(s.volume, i);
  }
  amt /= t - from + 1;
  const l1 = market === "US" ? close >= 5 && amt >= 1e7 : !(close < 2) && amt >= 5e7;
  if (!l1) return;
  const l2 = l2Channels(s, t, x.l2);
  const n = c.count[d] ?? 0;
  c.count[d] = n + 1;
  const slot = d * c.cap + n;
  const r = slot * REC;
  const rec = c.rec;
  let mask = 0;
  for (const ch of l2.channels) mask |= 1 << CHANNELS.indexOf(ch as (typeof CHANNELS)[number]);
  rec[r + SYM] = sym;
  rec[r + MASK] = mask;
  writeFeatures(rec, r, s, x.p.bench, t);
  if (!l2.pass || t < 65) return;
  // The L4 triggers of bar t (a trigger lookback of one bar), the first live one of each type.
  let triggers: DayTrigger[] | null = null;
  for (const sig of triggersAt(s, t, x.scale)) {
    if (triggers?.some((y) => y.type === sig.type)) continue;
    const outcome = confirmTrigger(s, sig, t);
    if (outcome.status === "expired") continue;
    (triggers ??= []).push({ type: sig.type, status: outcome.status });
  }
  if (!triggers) return;
  const sim = simulateTrade(s, t, x.rules);
  // The row's number rides in the MASK field above the four channel bits.
  c.lit.push({
    triggers,
    trade: sim
      ? [
          s.date[sim.entryIndex] ?? "",
          sim.entryPrice,
          s.date[sim.exitIndex] ?? s.date[t] ?? "",
          sim.exitPrice,
          sim.exitReason,
          sim.ret,
        ]
      : null,
  });
  rec[r + MASK] = mask + 16 * c.lit.length;
}

/** A candidate as the day replay reads it. */
export interface DayCandidate {
  code: string;
  industry: string | null;
  /** The slot it came from (its trade is `litOf(columns, slot).trade`). */
  slot: number;
}

/** Reusable per-day buffers of `dayCandidates` (five value columns, five rank columns). */
let scratch = new Float64Array(0);
let sectorCounts = new Int32Array(0);
let memberSector = new Int32Array(0);
let memberStrength = new Float64Array(0);

/** The reduce's candidates of day `d` (reduceFunnel's order, at most `maxCandidates`). */
export function dayCandidates(
  c: DayColumns,
  d: number,
  metaOf: (sym: number) => SymbolMeta,
  maxCandidates: number,
  uniqueIds = false,
): DayCandidate[] {
  const n = c.count[d] ?? 0;
  const base = d * c.cap;
  if (scratch.length < 10 * n) scratch = new Float64Array(Math.max(10 * n, 2 * scratch.length));
  const col = (k: number) => scratch.subarray(k * n, (k + 1) * n);
  const v50 = col(0);
  const v120 = col(1);
  const v20 = col(2);
  const v5 = col(3);
  const v3 = col(4);
  const rec = c.rec;
  if (sectorCounts.length < c.sectors.length) sectorCounts = new Int32Array(c.sectors.length);
  sectorCounts.fill(0);
  for (let i = 0; i < n; i++) {
    const r = (base + i) * REC;
    v50[i] = rec[r + R50] as number;
    v120[i] = rec[r + R120] as number;
    v20[i] = rec[r + R20] as number;
    v5[i] = rec[r + R5] as number;
    v3[i] = rec[r + R3] as number;
    const k = c.sectorOf[rec[r + SYM] as number] as number;
    sectorCounts[k] = (sectorCounts[k] ?? 0) + 1;
  }
  const rps50 = rpsRanksInto(v50, n, col(5));
  const rps120 = rpsRanksInto(v120, n, col(6));
  const q20 = rpsRanksInto(v20, n, col(7));
  const q5 = rpsRanksInto(v5, n, col(8));
  const q3 = rpsRanksInto(v3, n, col(9));
  // L3 over the L2 passers: with unique ids on the columns (daySectors: no member objects), else the
  // real sectorResonance over members keyed by id (duplicates share a key, as in the reduce).
  if (memberSector.length < n) {
    memberSector = new Int32Array(Math.max(n, 2 * memberSector.length));
    memberStrength = new Float64Array(memberSector.length);
  }
  const members: SectorMember[] = [];
  const l2: { slot: number; mask: number; strength: number; member: number; meta: SymbolMeta }[] = [];
  let m = 0;
  for (let i = 0; i < n; i++) {
    const slot = base + i;
    const r = slot * REC;
    const bias200 = rec[r + BIAS200] as number;
    if (Number.isNaN(bias200)) continue;
    const r50 = rps50[i] as number;
    const r120 = rps120[i] as number;
    // reduceFunnel's strength: 0.4·q20 + 0.3·q5 + 0.3·q3 of the percentiles (ranks / 100).
    const strength =
      0.4 * ((q20[i] as number) / 100) + 0.3 * ((q5[i] as number) / 100) + 0.3 * ((q3[i] as number) / 100);
    const rpsOk = (r50 >= 65 && r120 >= 70) || (r120 >= 80 && r50 >= 50);
    const packed = rec[r + MASK] as number;
    let mask = packed & 15;
    if (!rpsOk) mask &= ~MARKUP;
    const r20 = rec[r + R20] as number;
    const rs10 = rec[r + RS10] as number;
    const rs3 = rec[r + RS3] as number;
    if (
      r50 <= 45 &&
      r120 >= 70 &&
      Math.abs(bias200) <= 0.08 &&
      (Number.isNaN(r20) ? 0 : r20) <= -0.03 &&
      (Number.isNaN(rs10) || rs10 >= -0.02) &&
      (Number.isNaN(rs3) || rs3 >= -0.08)
    )
      mask |= AMBUSH;
    const vol = rec[r + VOL5TO20] as number;
    if (r120 >= 75 && (Number.isNaN(vol) ? 0 : vol) >= 0.7 && (mask & MARKUP) === 0) mask |= TREND_CONTINUATION;
    const lit = packed >= 16 ? c.lit[(packed >> 4) - 1] : undefined;
    if (r120 >= 30 && lit && lit.triggers.some((t) => t.type === "sos")) mask |= SOS_BYPASS;
    if (mask === 0) continue;
    const sym = rec[r + SYM] as number;
    const k = c.sectorOf[sym] as number;
    memberSector[m] = k;
    memberStrength[m] = strength;
    // Only a passer with a live trigger can be a candidate; the rest count for L3 alone.
    const meta = lit || !uniqueIds ? metaOf(sym) : undefined;
    if (!uniqueIds && meta) members.push({ key: meta.id, sector: c.sectors[k] ?? "unclassified", strength });
    if (lit && meta) l2.push({ slot, mask, strength, member: m, meta });
    m++;
  }
  let passes: (x: (typeof l2)[number]) => boolean;
  if (uniqueIds) {
    const l3 = daySectors(m, memberSector, memberStrength, sectorCounts, c.sectors.length);
    passes = (x) => l3.passes(x.member);
  } else {
    const l1BySector = new Map<string, number>();
    c.sectors.forEach((sector, k) => {
      if ((sectorCounts[k] ?? 0) > 0) l1BySector.set(sector, sectorCounts[k] ?? 0);
    });
    const l3 = sectorResonance(members, l1BySector);
    passes = (x) => l3.passed.has(x.meta.id);
  }
  const candidates: (DayCandidate & { priority: number })[] = [];
  for (const x of l2) {
    const lit = litOf(c, x.slot);
    if (!lit || !passes(x)) continue;
    const confirmed = lit.triggers.some((t) => t.status === "confirmed");
    let priority = MASK_POINTS[x.mask] ?? 0;
    for (const t of lit.triggers) priority += PRIORITY_POINTS[t.type] ?? 0;
    priority += (confirmed ? 10 : 0) + x.strength * 10;
    candidates.push({ code: x.meta.id, industry: x.meta.industry, slot: x.slot, priority: round(priority, 2) });
  }
  candidates.sort((a, b) => b.priority - a.priority || a.code.localeCompare(b.code));
  return candidates.slice(0, maxCandidates);
}
