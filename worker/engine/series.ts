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

/** Builds the series from columns (used as they are: the series keeps the OHLCV arrays). */
export function buildSeriesFromColumns(c: BarColumns, market: Market, params: EngineParams): Series {
  return derive(c.date, c.open, c.high, c.low, c.close, c.volume, market, params);
}

/** Builds the series for `bars` (ascending, validated). */
export function buildSeries(bars: readonly Bar[], market: Market, params: EngineParams): Series {
  const n = bars.length;
  const date: string[] = new Array<string>(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
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
  return derive(date, open, high, low, close, volume, market, params);
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
): Series {
  const n = close.length;
  const tr = trueRange(high, low, close);
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
    atr: atrWilder(tr, 14),
    vr: volumeRatio(volume, params.avgWindow),
    sr: spreadRatio(high, low, params.avgWindow),
    cp: closePosition(high, low, close),
    pct: pctChange(close),
    sma20: sma(close, 20),
    sma50: sma(close, 50),
    sma200: sma(close, 200),
    ret60: returns(close, 60),
    frozen,
  };
}
