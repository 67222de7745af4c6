/**
 * The clustered climax (issue 15): real climaxes span several bars below the one-bar rule's 2×
 * volume. The extreme of a trend window at the end of a fall (rise), with the cluster's effort judged
 * against the series' own baseline and percentile. Called by detect-climax.ts's climaxCandidate.
 */
import { at, meanOf } from "./numeric";
import { medianFast } from "./rolling";
import type { Series } from "./series";
import { rollingArgExtreme } from "./window-stats";
import { fpct, fx } from "./event-util";
import type { PendingClimax, ScanContext } from "./structure-types";

/** values[t] is strictly below every value in [from, t−1] (scans back, stops at the first lower one). */
function lowestSince(values: ArrayLike<number>, from: number, t: number): boolean {
  const x = values[t] ?? Number.NaN;
  for (let i = t - 1; i >= from; i--) if (!((values[i] ?? Number.NaN) > x)) return false;
  return true;
}

/** values[t] is strictly above every value in [from, t−1]. */
function highestSince(values: ArrayLike<number>, from: number, t: number): boolean {
  const x = values[t] ?? Number.NaN;
  for (let i = t - 1; i >= from; i--) if (!((values[i] ?? Number.NaN) < x)) return false;
  return true;
}

/**
 * median(values[from..to)) ≤ x, decided by counting where that is exact (both middle values on one
 * side of x) and by the median itself otherwise: the same answer as medianOf without sorting.
 */
function medianAtMost(values: ArrayLike<number>, from: number, to: number, x: number): boolean {
  const n = to - from;
  if (n <= 0) return false;
  let le = 0;
  for (let i = from; i < to; i++) if ((values[i] ?? Number.NaN) <= x) le++;
  const lowMid = (n - 1) >> 1;
  const highMid = n >> 1;
  if (le <= lowMid) return false; // the lower middle value is above x
  if (le > highMid) return true; // both middle values are at most x
  return medianFast(values, from, to) <= x;
}

/** Share of the values in [from, to] strictly below x. */
function rankBelow(values: ArrayLike<number>, from: number, to: number, x: number): number {
  let below = 0;
  let n = 0;
  if (values instanceof Float64Array) {
    // The same count read straight from the typed array (indices past its end hold no finite value).
    const end = Math.min(to, values.length - 1);
    for (let i = Math.max(0, from); i <= end; i++) {
      const v = values[i] as number;
      if (v - v !== 0) continue; // NaN or ±Infinity
      n++;
      if (v < x) below++;
    }
    return n > 0 ? below / n : 0;
  }
  for (let i = Math.max(0, from); i <= to; i++) {
    const v = values[i] ?? Number.NaN;
    if (!Number.isFinite(v)) continue;
    n++;
    if (v < x) below++;
  }
  return n > 0 ? below / n : 0;
}

/**
 * Clustered climax at bar t (issue 15): t makes the `clusterTrendBars`-bar extreme at the end of a
 * fall (rise) of ≥ `scDrawdown` (`bcRise`), and the cluster [t−4, t] carries the effort: its heaviest
 * volume against a longer baseline (median of the 100 bars before the cluster) or the series' own
 * percentile, with a wide bar or a fall (rise) of ≥ 2.5 ATR across the cluster. The close need not
 * be strong: the AR rally that confirms the climax is the reversal evidence. For a selling climax the
 * extreme may also be up to `clusterAfterBars` bars before t, its reversal bars joining the volume
 * test (see `clusterAfterBars`): the candidate is known at t, never earlier, so nothing repaints.
 */
export function clusterClimax(
  ctx: ScanContext,
  t: number,
  wants: (side: "acc" | "dist", price: number) => boolean = () => true,
): PendingClimax | null {
  for (let lag = 0; lag <= ctx.p.clusterAfterBars; lag++) {
    const c = clusterAt(ctx, t - lag, t, wants);
    if (c) return c;
  }
  return null;
}

/**
 * The trend-window extremes clusterAt asks about on every bar, for one series at a time (built on
 * first use, rebuilt for another series or window): for the window [t−n+1, t] ending at each bar,
 * the earliest index of its lowest low and of its highest high. `ok` is false when the lows or
 * highs hold a NaN; clusterAt then scans as before.
 */
const trendWindow = { s: null as Series | null, n: 0, ok: false, lowAt: new Int32Array(0), highAt: new Int32Array(0) };

function trendWindowOf(s: Series, n: number): typeof trendWindow {
  const w = trendWindow;
  if (w.s === s && w.n === n) return w;
  if (w.lowAt.length < s.n) {
    w.lowAt = new Int32Array(s.n);
    w.highAt = new Int32Array(s.n);
  }
  w.s = s;
  w.n = n;
  w.ok =
    s.low.length === s.n &&
    s.high.length === s.n &&
    rollingArgExtreme(s.low, n, 1, false, w.lowAt) &&
    rollingArgExtreme(s.high, n, -1, false, w.highAt);
  return w;
}

/** The clustered climax with its extreme at t and its episode's volume judged over [t−4, end]. */
function clusterAt(
  ctx: ScanContext,
  t: number,
  end: number,
  wants: (side: "acc" | "dist", price: number) => boolean,
): PendingClimax | null {
  const { s, p, scale } = ctx;
  // Readable as soon as a trend of `clusterMinTrendBars` can precede the cluster: with less history
  // than the trend window (a series that starts inside a decline) the window is what there is, and
  // MA50 before its 50th bar is the mean close so far — so a window that starts shortly before a
  // climax reads it as a longer one does.
  if (t < p.clusterMinTrendBars + p.clusterBars || at(s.frozen, t) === 1) return null;
  const from = Math.max(0, t - p.clusterTrendBars);
  const low = at(s.low, t);
  const high = at(s.high, t);
  const ma50 = t >= 49 ? at(s.sma50, t) : meanOf(s.close, 0, t + 1);
  const c = at(s.close, t);
  // [from, t−1] is the trend window ending at t−1: its extremes come from the table when it has one.
  const w = trendWindowOf(s, p.clusterTrendBars);
  let acc = c < ma50 && (w.ok ? low < at(s.low, at(w.lowAt, t - 1)) : lowestSince(s.low, from, t));
  let dist = !acc && c > ma50 && (w.ok ? high > at(s.high, at(w.highAt, t - 1)) : highestSince(s.high, from, t));
  // Bars after the low (the reversal, up to \`end\`) join a selling climax's episode while none undercut it.
  if (end > t) {
    dist = false;
    for (let i = t + 1; i <= end && acc; i++) if (!(at(s.low, i) > low)) acc = false;
  }
  // A buying climax needs the whole trend window (an advance makes new highs of a short history
  // all the time); a selling climax is read from a shorter one with all its evidence.
  const short = t < p.clusterTrendBars + p.clusterBars;
  if (short) dist = false;
  if ((!acc && !dist) || !wants(acc ? "acc" : "dist", acc ? low : high)) return null;
  // Where the trend began: the window's highest high before an SC, lowest low before a BC (the
  // first such bar, as a forward scan with a strict comparison finds it).
  let k0 = from;
  if (w.ok) k0 = at(acc ? w.highAt : w.lowAt, t - 1);
  else
    for (let i = from + 1; i < t; i++) if (acc ? at(s.high, i) > at(s.high, k0) : at(s.low, i) < at(s.low, k0)) k0 = i;
  if (t - k0 < p.clusterMinTrendBars) return null;
  const extent = acc ? 1 - low / at(s.high, k0) : high / at(s.low, k0) - 1;
  if (extent < (acc ? p.scDrawdown : p.bcRise) * scale * (end > t ? p.clusterAfterDepth : 1)) return null;
  const c0 = t - p.clusterBars + 1;
  let vmax = 0;
  let kmax = t;
  let srMax = 0;
  let vPre = 0;
  let kPre = t;
  let srPre = 0;
  for (let i = c0; i <= end; i++) {
    if (at(s.frozen, i) === 1) continue;
    const v = at(s.volume, i);
    if (v > vmax) {
      vmax = v;
      kmax = i;
    }
    const r = at(s.sr, i);
    if (Number.isFinite(r)) srMax = Math.max(srMax, r);
    if (i === t) {
      vPre = vmax;
      kPre = kmax;
      srPre = srMax;
    }
  }
  // The climax's recorded effort is that of its bars up to the extreme (later tests compare to it).
  const rec = { vol: vPre, vr: at(s.vr, kPre), sr: srPre };
  const atr = at(s.atr, c0 - 1);
  const travel = acc ? at(s.close, c0 - 1) - low : high - at(s.close, c0 - 1);
  // Price evidence first (cheap), then the series' own percentile, the median baseline last.
  // Selling climaxes: volume by either measure and spread or travel. Buying climaxes need all of it
  // (an advance makes new highs on heavy volume all the time; a top is where effort peaks).
  if (
    short
      ? !(srMax >= p.clusterSr && travel >= p.clusterAtr * atr)
      : acc
        ? !(srMax >= p.clusterSr || travel >= p.clusterAtr * atr)
        : !(srMax >= p.clusterSr)
  )
    return null;
  const pct = rankBelow(s.volume, c0 - p.clusterPctBars, c0 - 1, vmax);
  // With less history than the trend window, only a climax with all its evidence is read.
  const strict = !acc || end > t || short;
  if (strict && !(pct >= p.clusterVolPct)) return null;
  // An episode extended past its low is one only when the heaviest bar is the reversal itself, the
  // low's own bar already closed off its low (upper half), and the low is the lowest of the last
  // `clusterPctBars` bars (the bottom of the longer range, not a pause inside a markdown).
  if (end > t && !(kmax > t && at(s.cp, t) >= 0.5 && lowestSince(s.low, Math.max(0, t - p.clusterPctBars), t)))
    return null;
  const b0 = Math.max(0, c0 - p.clusterBaseBars);
  if (!(!strict && pct >= p.clusterVolPct) && !medianAtMost(s.volume, b0, c0, vmax / p.clusterVolRatio)) return null;
  return {
    side: acc ? "acc" : "dist",
    index: t,
    price: acc ? low : high,
    vol: rec.vol,
    sr: rec.sr,
    vr: rec.vr,
    cp: at(s.cp, t),
    peak: kmax,
    reasons: clusterReasons(s, p, b0, c0, vmax, pct, end - c0 + 1, end > t, acc, extent, srMax, travel / atr),
  };
}

/**
 * The reasons of a clustered climax, built when asked for. A module-level factory, so that the
 * variables they read are captured only for a returned candidate, not on every call of clusterAt.
 */
function clusterReasons(
  s: ScanContext["s"],
  p: ScanContext["p"],
  b0: number,
  c0: number,
  vmax: number,
  pct: number,
  bars: number,
  afterLow: boolean,
  acc: boolean,
  extent: number,
  srMax: number,
  atrs: number,
): () => string[] {
  return () => {
    const base = medianFast(s.volume, b0, c0);
    const ratio = base > 0 ? vmax / base : 0;
    return [
      `climax cluster of ${bars} bars${afterLow ? ", the heaviest the reversal bar after the low" : ""}: heaviest volume ${fx(ratio)} the 100-bar median, above ${fpct(pct)} of the last ${p.clusterPctBars} bars`,
      `new ${p.clusterTrendBars}-bar ${acc ? "low" : "high"} after a ${fpct(extent)} ${acc ? "fall" : "rise"}; widest bar ${fx(srMax)} the 20-bar spread, ${atrs.toFixed(1)} ATR across the cluster`,
    ];
  };
}
