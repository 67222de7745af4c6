/**
 * The precomputed, causal per-bar series every detector reads (DOMAIN.md §1.13 B).
 * Each value at t depends on bars ≤ t only, so a truncated input yields an identical prefix.
 */
import type { Bar, Market } from "../contracts/analysis";
import { closePosition, isFrozenBar, pctChange, spreadRatio } from "./bar-shape";
import { sma } from "./moving-average";
import { returns } from "./momentum";
import { at } from "./numeric";
import type { EngineParams } from "./params";
import { atrWilder, trueRange } from "./volatility";
import { volumeRatio } from "./volume";

/** Column-oriented bars plus the primitives. */
export interface Series {
  n: number;
  date: readonly string[];
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  tr: Float64Array;
  atr: Float64Array;
  vr: Float64Array;
  sr: Float64Array;
  cp: Float64Array;
  pct: Float64Array;
  sma20: Float64Array;
  sma50: Float64Array;
  sma200: Float64Array;
  ret60: Float64Array;
  /** 1 where the bar is limit-locked (CN only). */
  frozen: Uint8Array;
}

/** Bars as columns (the cache decodes straight into these; `amount` is NaN where missing). */
export interface BarColumns {
  date: readonly string[];
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  amount: Float64Array;
}

/** The last `n` bars of columns (views, no copy). */
export function lastColumns(c: BarColumns, n: number): BarColumns {
  const len = c.close.length;
  if (n >= len) return c;
  const from = len - n;
  return {
    date: c.date.slice(from),
    open: c.open.subarray(from),
    high: c.high.subarray(from),
    low: c.low.subarray(from),
    close: c.close.subarray(from),
    volume: c.volume.subarray(from),
    amount: c.amount.subarray(from),
  };
}

/** Float64 slots a series of `n` bars derives (the size of a reusable `arena`). */
export function seriesArenaSize(n: number): number {
  return 11 * n;
}

/**
 * Builds the series from columns (used as they are: the series keeps the OHLCV arrays). With an
 * `arena` (≥ seriesArenaSize(n)) the derived columns are written there instead of a new buffer: a
 * caller that drops each series before building the next reuses one arena for a whole batch.
 */
export function buildSeriesFromColumns(
  c: BarColumns,
  market: Market,
  params: EngineParams,
  arena?: Float64Array,
): Series {
  return derive(c.date, c.open, c.high, c.low, c.close, c.volume, market, params, arena);
}

/** Float64 slots `buildSeries` uses for `n` bars when given a scratch buffer (OHLCV and the derived columns). */
export function seriesScratchSize(n: number): number {
  return 5 * n + seriesArenaSize(n);
}

/**
 * Builds the series for `bars` (ascending, validated). With a `scratch` buffer (≥
 * seriesScratchSize(n)) every column is a view of it instead of a new array: a caller that drops the
 * series before building the next (analyze) reuses one buffer across calls.
 */
export function buildSeries(
  bars: readonly Bar[],
  market: Market,
  params: EngineParams,
  scratch?: Float64Array,
): Series {
  const n = bars.length;
  const date: string[] = new Array<string>(n);
  const buf = scratch && scratch.length >= seriesScratchSize(n) ? scratch : undefined;
  const open = buf ? buf.subarray(0, n) : new Float64Array(n);
  const high = buf ? buf.subarray(n, 2 * n) : new Float64Array(n);
  const low = buf ? buf.subarray(2 * n, 3 * n) : new Float64Array(n);
  const close = buf ? buf.subarray(3 * n, 4 * n) : new Float64Array(n);
  const volume = buf ? buf.subarray(4 * n, 5 * n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const b = bars[i];
    if (!b) continue;
    date[i] = b.date;
    open[i] = b.open;
    high[i] = b.high;
    low[i] = b.low;
    close[i] = b.close;
    volume[i] = b.volume;
  }
  return derive(date, open, high, low, close, volume, market, params, buf?.subarray(5 * n));
}

function derive(
  date: readonly string[],
  open: Float64Array,
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  volume: Float64Array,
  market: Market,
  params: EngineParams,
  into?: Float64Array,
): Series {
  const n = close.length;
  // One backing buffer for every derived column (11 views): far fewer allocations per series.
  const arena = into && into.length >= seriesArenaSize(n) ? into : new Float64Array(seriesArenaSize(n));
  const col = (k: number): Float64Array => arena.subarray(k * n, (k + 1) * n);
  const tr = trueRange(high, low, close, col(0));
  const frozen = new Uint8Array(n);
  if (market === "CN") {
    for (let i = 1; i < n; i++) {
      const f = isFrozenBar(at(open, i), at(high, i), at(low, i), at(close, i), at(close, i - 1), params.frozenPct);
      frozen[i] = f ? 1 : 0;
    }
  }
  return {
    n,
    date,
    open,
    high,
    low,
    close,
    volume,
    tr,
    atr: atrWilder(tr, 14, col(1)),
    vr: volumeRatio(volume, params.avgWindow, col(2)),
    sr: spreadRatio(high, low, params.avgWindow, col(3), col(10)),
    cp: closePosition(high, low, close, col(4)),
    pct: pctChange(close, col(5)),
    sma20: sma(close, 20, col(6)),
    sma50: sma(close, 50, col(7)),
    sma200: sma(close, 200, col(8)),
    ret60: returns(close, 60, col(9)),
    frozen,
  };
}
