/**
 * The per-symbol half of the backtest (the "map" a fan-out batch runs): a symbol's series, rolling
 * windows and aligned benchmark are built once, then each replay day is answered by index — the
 * funnel features as of that day as a compact JSON-safe row (L1 passers only), the breadth bit, and
 * for days with a live trigger the trade it would make. The day replay (day-replay.ts) reads only rows.
 */
import type { Bar, Market, TriggerType } from "../../contracts/analysis";
import { funnelWindows, type FunnelWindows } from "../funnel";
import type { EngineParams } from "../params";
import { alignBenchmark } from "../relative-strength";
import {
  amountsOf,
  symbolFeatures,
  type FeatureOptions,
  type SymbolFeatures,
  type SymbolMeta,
} from "../screen/symbol-features";
import { buildSeries, buildSeriesFromColumns, seriesArenaSize, type BarColumns, type Series } from "../series";
import { rollingMax, rollingMin } from "../window-stats";
import { simulateTrade, type TradeRules } from "./simulate-trade";

/** Bars of MA200 history a symbol needs before it can signal. */
export const WARMUP = 200;

/** A symbol ready to be asked about any day. */
export interface BacktestSymbol {
  meta: SymbolMeta;
  s: Series;
  at: Map<string, number>;
  amounts: ArrayLike<number>;
  bench: Float64Array;
  windows: FunnelWindows;
  /** The feature options of the last context asked about (see `featureOptions`). */
  options?: { ctx: DayContext; options: FeatureOptions };
}

/** Same dates, in order (so a benchmark aligned to one is aligned to the other). */
function sameDates(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Buffers a symbol's preparation writes into (the series' derived columns, its aligned benchmark and
 * rolling windows), reused symbol after symbol by a caller that is done with each symbol before it
 * prepares the next (the single call's passes): no per-symbol arrays to allocate or collect.
 */
export interface PrepareScratch {
  buf: Float64Array;
  views: { n: number; arena: Float64Array; bench: Float64Array; windows: Float64Array[] } | null;
}

export function prepareScratch(): PrepareScratch {
  return { buf: new Float64Array(0), views: null };
}

/** Windows of funnelWindows a preparation writes, in the order of `PrepareScratch.views.windows`. */
const WINDOW_SLOTS = 7;

function viewsOf(sc: PrepareScratch, n: number): NonNullable<PrepareScratch["views"]> {
  if (sc.views && sc.views.n === n) return sc.views;
  const arenaSize = seriesArenaSize(n);
  const size = arenaSize + (1 + WINDOW_SLOTS) * n;
  if (sc.buf.length < size) sc.buf = new Float64Array(Math.max(size, Math.ceil(1.25 * sc.buf.length)));
  const at = (k: number) => sc.buf.subarray(arenaSize + k * n, arenaSize + (k + 1) * n);
  sc.views = {
    n,
    arena: sc.buf.subarray(0, arenaSize),
    bench: at(0),
    windows: Array.from({ length: WINDOW_SLOTS }, (_, k) => at(1 + k)),
  };
  return sc.views;
}

/**
 * Builds the series, date index, benchmark alignment and rolling windows of one symbol, once.
 * `sameIndex`: a symbol prepared against the same `index`; when its dates are this symbol's, its
 * aligned benchmark and the benchmark's rolling windows are reused (most of a market shares one
 * calendar), the same arrays `alignBenchmark` and `funnelWindows` would build again. `scratch`:
 * the arrays are views of its buffers (valid until the next preparation with it; `sameIndex` must
 * then be the symbol prepared just before, with the same scratch), the same values as without it.
 */
export function prepareSymbol(
  meta: SymbolMeta,
  bars: readonly Bar[] | BarColumns,
  market: Market,
  params: EngineParams,
  index: readonly Bar[],
  sameIndex?: BacktestSymbol,
  scratch?: PrepareScratch,
): BacktestSymbol {
  const columns = "close" in bars ? bars : null;
  const v = scratch ? viewsOf(scratch, columns ? columns.close.length : (bars as readonly Bar[]).length) : null;
  const s = columns
    ? buildSeriesFromColumns(columns, market, params, v?.arena)
    : buildSeries(bars as readonly Bar[], market, params);
  const reuse = sameIndex && sameDates(sameIndex.s.date, s.date) ? sameIndex : null;
  const bench = reuse ? reuse.bench : alignBenchmark(s.date, index, v?.bench);
  let windows: FunnelWindows;
  if (!v)
    windows = reuse
      ? { ...funnelWindows(s), bench20: reuse.windows.bench20, bench40: reuse.windows.bench40 }
      : funnelWindows(s, bench);
  else {
    // funnelWindows' windows, written into the scratch (scratch-windows test: the same values).
    const w = v.windows;
    windows = {
      low250: rollingMin(s.low, 250, w[0]),
      high60: rollingMax(s.high, 60, w[1]),
      low60: rollingMin(s.low, 60, w[2]),
      low20: rollingMin(s.low, 20, w[3]),
      low40: rollingMin(s.low, 40, w[4]),
      bench20: reuse ? reuse.windows.bench20 : rollingMin(bench, 20, w[5]),
      bench40: reuse ? reuse.windows.bench40 : rollingMin(bench, 40, w[6]),
    };
  }
  // The date map is built on first use: the single call finds each day's bar by walking the dates.
  let dateAt: Map<string, number> | undefined;
  return {
    meta,
    s,
    get at(): Map<string, number> {
      if (!dateAt) {
        dateAt = new Map<string, number>();
        for (let i = 0; i < s.n; i++) dateAt.set(s.date[i] ?? "", i);
      }
      return dateAt;
    },
    amounts: columns ? columns.amount : amountsOf(bars as readonly Bar[]),
    bench,
    windows,
  };
}

/** The trade a candidate would make: entry date and price, exit date, price and reason, net return. */
export type TradeRow = [
  entryDate: string,
  entryPrice: number,
  exitDate: string,
  exitPrice: number,
  reason: string,
  ret: number,
];

/**
 * One L1 passer on one day: symbol number (its place in the universe), close, r3, r5, r20, r50, r120,
 * bias200, rs10, rs3, vol5to20, L2 channel bits, live triggers (type index × 2 + confirmed), the
 * structural stop, and its trade (null when unfillable; 0 without a trigger, never a candidate).
 */
export type DayRow = [
  sym: number,
  close: number,
  r3: number | null,
  r5: number | null,
  r20: number | null,
  r50: number | null,
  r120: number | null,
  bias200: number | null,
  rs10: number | null,
  rs3: number | null,
  vol5to20: number | null,
  channels: number,
  triggers: number[],
  stop: number | null,
  trade: TradeRow | null | 0,
];

/** L2 channels in the order l2Channels finds them (bit i = CHANNELS[i]). */
export const CHANNELS = ["markup", "accumulation", "dry_volume", "rs_divergence"] as const;
/** Trigger types by index. */
export const TRIGGER_TYPES: readonly TriggerType[] = ["spring", "sos", "lps", "evr", "compression", "trend_pullback"];

/** What a day's answer needs besides the symbol. */
export interface DayContext {
  market: Market;
  params: EngineParams;
  /** Trade rules (lastIndex is the symbol's own). */
  rules: TradeRules;
}

/** A symbol's answer on one day before it is packed into a row: its features when it passes L1, and its trade. */
export interface DayFeatures {
  above: boolean;
  /** The funnel features (L1 passers only). */
  f: SymbolFeatures | null;
  /** The trade it would make (null when unfillable; 0 without a trigger). */
  trade: TradeRow | null | 0;
}

/** The symbol's feature options for a context, built once per symbol and context (not per day). */
function featureOptions(p: BacktestSymbol, ctx: DayContext): FeatureOptions {
  const cached = p.options;
  if (cached && cached.ctx === ctx) return cached.options;
  const options: FeatureOptions = {
    market: ctx.market,
    params: ctx.params,
    bench: p.bench,
    triggerLookback: 1,
    breadthDays: 1,
    triggersOnlyForL2: true,
    windows: p.windows,
  };
  p.options = { ctx, options };
  return options;
}

/** The symbol on bar t: whether it is above its MA20 (breadth), its features when it passes L1 and its trade. */
export function symbolDayFeatures(p: BacktestSymbol, t: number, ctx: DayContext): DayFeatures {
  const f: SymbolFeatures = symbolFeatures(p.s, t, p.meta, featureOptions(p, ctx), p.amounts);
  const above = f.aboveMa20[0] === true;
  if (!f.l1.pass) return { above, f: null, trade: 0 };
  let trade: TradeRow | null | 0 = 0;
  if (f.triggers.length > 0) {
    const sim = simulateTrade(p.s, t, { ...ctx.rules, lastIndex: p.s.n - 1 });
    trade = sim
      ? [
          p.s.date[sim.entryIndex] ?? "",
          sim.entryPrice,
          p.s.date[sim.exitIndex] ?? p.s.date[t] ?? "",
          sim.exitPrice,
          sim.exitReason,
          sim.ret,
        ]
      : null;
  }
  return { above, f, trade };
}

/** The symbol on bar t: whether it is above its MA20 (breadth) and its row when it passes L1. */
export function symbolDay(
  p: BacktestSymbol,
  sym: number,
  t: number,
  ctx: DayContext,
): { above: boolean; row: DayRow | null } {
  const { above, f, trade } = symbolDayFeatures(p, t, ctx);
  if (!f) return { above, row: null };
  let mask = 0;
  for (const c of f.channels) mask |= 1 << CHANNELS.indexOf(c as (typeof CHANNELS)[number]);
  const triggers = f.triggers.map((x) => TRIGGER_TYPES.indexOf(x.type) * 2 + (x.status === "confirmed" ? 1 : 0));
  const row: DayRow = [
    sym,
    f.close,
    f.r3,
    f.r5,
    f.r20,
    f.r50,
    f.r120,
    f.bias200,
    f.rs10,
    f.rs3,
    f.vol5to20,
    mask,
    triggers,
    f.structuralStop,
    trade,
  ];
  return { above, row };
}

/** The channel list of each mask, built once (the reduce only reads a row's lists, never changes them). */
const CHANNEL_LISTS: readonly string[][] = Array.from({ length: 1 << CHANNELS.length }, (_, mask) =>
  CHANNELS.filter((_, i) => (mask & (1 << i)) !== 0),
);
const L1_PASS = { pass: true, reason: "" };

/** The features the reduce phase reads, back from a row (reasons and scores are not kept). */
export function featuresOfRow(row: DayRow, meta: SymbolMeta, date: string): SymbolFeatures {
  const [, close, r3, r5, r20, r50, r120, bias200, rs10, rs3, vol5to20, mask, triggers, stop] = row;
  return {
    meta,
    asOf: date,
    close,
    l1: L1_PASS,
    channels: CHANNEL_LISTS[mask] ?? CHANNELS.filter((_, i) => (mask & (1 << i)) !== 0),
    l2Reason: "",
    r3,
    r5,
    r20,
    r50,
    r120,
    bias200,
    rs10,
    rs3,
    vol5to20,
    triggers: triggers.map((code) => ({
      type: TRIGGER_TYPES[code >> 1] ?? "sos",
      date,
      index: 0,
      status: code & 1 ? "confirmed" : "pending",
      score: 0,
      reasons: [],
    })),
    structuralStop: stop,
    aboveMa20: [],
  };
}

/** Bar index of calendar day `date` in the symbol, when it is past the warm-up. */
export function dayIndex(p: BacktestSymbol, date: string): number | undefined {
  const t = p.at.get(date);
  return t === undefined || t < WARMUP ? undefined : t;
}
