/**
 * The per-symbol half of the screening funnel (the "map" a fan-out batch runs): L1 liquidity, the L2
 * channels that need no cross-section, the returns RPS and sector strength are ranked on, and the L4
 * triggers of the last bars with their confirmation state. Cross-sectional layers live in reduce-funnel.ts.
 */
import type { Bar, Board, Market, TriggerStatus, TriggerType } from "../../contracts/analysis";
import { computeStops } from "../exits";
import { l1LiquidityOf, l2Channels, type FunnelWindows, type LayerResult } from "../funnel";
import { sma } from "../moving-average";
import { at, finiteOrNull, meanOf } from "../numeric";
import { BOARD_SCALE, type EngineParams } from "../params";
import { relativeReturn } from "../relative-strength";
import { buildSeriesFromColumns, type BarColumns, type Series } from "../series";
import { confirmTrigger, triggersAt, type TriggerSignal } from "../triggers";

/** Who a series belongs to. */
export interface SymbolMeta {
  id: string;
  code: string;
  name: string;
  industry: string | null;
  board: Board | null;
}

/** A live (pending or confirmed) L4 trigger with its score. */
export interface LiveTrigger {
  type: TriggerType;
  date: string;
  /** Bar index of the signal within the series. */
  index: number;
  status: TriggerStatus;
  score: number;
  reasons: string[];
}

/** What the map phase knows about one symbol at bar t; JSON-safe (null for unknown numbers). */
export interface SymbolFeatures {
  meta: SymbolMeta;
  asOf: string;
  close: number;
  l1: { pass: boolean; reason: string };
  /** L2 channels found without RPS (markup here still needs the RPS check of the reduce phase). */
  channels: string[];
  l2Reason: string;
  r3: number | null;
  r5: number | null;
  r20: number | null;
  r50: number | null;
  r120: number | null;
  bias200: number | null;
  rs10: number | null;
  rs3: number | null;
  /** 5-bar / 20-bar mean volume. */
  vol5to20: number | null;
  triggers: LiveTrigger[];
  structuralStop: number | null;
  /** Close ≥ MA20 on each of the last `breadthDays` bars (oldest first), for breadth. */
  aboveMa20: boolean[];
}

/** Options of the map phase. */
export interface FeatureOptions {
  market: Market;
  params: EngineParams;
  /** Benchmark closes aligned to the series (NaN where missing). */
  bench?: ArrayLike<number>;
  /** Bars back (inclusive of t) in which a fired trigger still counts. */
  triggerLookback: number;
  breadthDays: number;
  /** Skip trigger detection when L1 or L2 fails (the backtest's fast path). */
  triggersOnlyForL2: boolean;
  /** The series' rolling windows, when the caller asks about many days of one series. */
  windows?: FunnelWindows;
}

function ret(close: ArrayLike<number>, t: number, k: number): number | null {
  return t - k >= 0 ? finiteOrNull(at(close, t) / at(close, t - k) - 1, 6) : null;
}

/** Score of a trigger (PARITY.md §2.4 L4): Spring = recovery % over support, else the signal bar's volume ratio. */
export function triggerScore(s: Series, sig: TriggerSignal): number {
  if (sig.type === "spring" && sig.support) return Math.round((at(s.close, sig.index) / sig.support - 1) * 10000) / 100;
  const vr = at(s.vr, sig.index);
  return Number.isFinite(vr) ? Math.round(vr * 100) / 100 : 0;
}

/** What the trigger-free part of the features reads of a series. */
type BaseColumns = Pick<Series, "date" | "close" | "volume" | "sma20" | "sma200">;

function l1Of(
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  t: number,
  meta: SymbolMeta,
  market: Market,
  amounts?: ArrayLike<number>,
): LayerResult {
  return /ST/i.test(meta.name)
    ? { pass: false, reasons: ["ST or delisting risk"] }
    : l1LiquidityOf(close, volume, t, market, amounts ? { amounts } : {});
}

/** Every field but the L4 triggers and the stop. */
function baseFeatures(
  s: BaseColumns,
  t: number,
  meta: SymbolMeta,
  o: FeatureOptions,
  l1raw: LayerResult,
  l2: LayerResult & { channels: string[] },
): SymbolFeatures {
  const close = at(s.close, t);
  const m200 = at(s.sma200, t);
  const f: SymbolFeatures = {
    meta,
    asOf: s.date[t] ?? "",
    close,
    l1: { pass: l1raw.pass, reason: l1raw.reasons[0] ?? "" },
    channels: l2.channels,
    l2Reason: l2.reasons[0] ?? "",
    r3: ret(s.close, t, 3),
    r5: ret(s.close, t, 5),
    r20: ret(s.close, t, 20),
    r50: ret(s.close, t, 50),
    r120: ret(s.close, t, 120),
    bias200: finiteOrNull(close / m200 - 1, 6),
    rs10: o.bench ? finiteOrNull(relativeReturn(s.close, o.bench, t, 10), 6) : null,
    rs3: o.bench ? finiteOrNull(relativeReturn(s.close, o.bench, t, 3), 6) : null,
    vol5to20: t >= 20 ? finiteOrNull(meanOf(s.volume, t - 4, t + 1) / meanOf(s.volume, t - 19, t + 1), 4) : null,
    triggers: [],
    structuralStop: null,
    aboveMa20: [],
  };
  for (let i = Math.max(0, t - o.breadthDays + 1); i <= t; i++) f.aboveMa20.push(at(s.close, i) >= at(s.sma20, i));
  return f;
}

/** Features of one symbol at bar t (t = last bar for a screening; any day for a backtest). */
export function symbolFeatures(
  s: Series,
  t: number,
  meta: SymbolMeta,
  o: FeatureOptions,
  amounts?: ArrayLike<number>,
): SymbolFeatures {
  const l1raw = l1Of(s.close, s.volume, t, meta, o.market, amounts);
  const l2 = l1raw.pass
    ? l2Channels(s, t, { ...(o.bench ? { bench: o.bench } : {}), ...(o.windows ? { windows: o.windows } : {}) })
    : { pass: false, channels: [], reasons: [] };
  const f = baseFeatures(s, t, meta, o, l1raw, l2);
  if (!l1raw.pass || (o.triggersOnlyForL2 && !l2.pass)) return f;
  const scale = o.market === "CN" ? BOARD_SCALE[meta.board ?? "main"] : 1;
  const seen = new Set<string>();
  for (let i = Math.max(65, t - o.triggerLookback + 1); i <= t; i++) {
    for (const sig of triggersAt(s, i, scale)) {
      if (seen.has(sig.type)) continue;
      const outcome = confirmTrigger(s, sig, t);
      if (outcome.status === "expired") continue;
      seen.add(sig.type);
      f.triggers.push({
        type: sig.type,
        date: s.date[i] ?? "",
        index: i,
        status: outcome.status,
        score: triggerScore(s, sig),
        reasons: sig.reasons,
      });
    }
  }
  if (f.triggers.length > 0) f.structuralStop = computeStops(s, t).structural;
  return f;
}

/**
 * `symbolFeatures` at the last bar of columns, the same record: the series' derived columns (ATR,
 * volume and spread ratios, …) are built only when L1 passes — the only case that reads them (L2,
 * L4) — else the record needs just MA20 and MA200, computed by the same `sma` the series uses.
 * `arena` (≥ seriesArenaSize(n)) is reused for the derived columns; the caller drops the result's
 * inputs before the next call.
 */
export function lastBarFeatures(
  c: BarColumns,
  meta: SymbolMeta,
  o: FeatureOptions,
  arena?: Float64Array,
): SymbolFeatures {
  const n = c.close.length;
  const t = n - 1;
  const l1raw = l1Of(c.close, c.volume, t, meta, o.market, c.amount);
  if (l1raw.pass) return symbolFeatures(buildSeriesFromColumns(c, o.market, o.params, arena), t, meta, o, c.amount);
  const buf = arena && arena.length >= 2 * n ? arena : new Float64Array(2 * n);
  const base: BaseColumns = {
    date: c.date,
    close: c.close,
    volume: c.volume,
    sma20: sma(c.close, 20, buf.subarray(0, n)),
    sma200: sma(c.close, 200, buf.subarray(n, 2 * n)),
  };
  return baseFeatures(base, t, meta, o, l1raw, { pass: false, channels: [], reasons: [] });
}

/** Convenience for callers holding bars: the `amount` column, NaN where missing. */
export function amountsOf(bars: readonly Bar[]): Float64Array {
  const out = new Float64Array(bars.length);
  for (let i = 0; i < bars.length; i++) out[i] = bars[i]?.amount ?? Number.NaN;
  return out;
}
