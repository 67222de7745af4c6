/**
 * Phase A of a structure: selling / buying climax (SC, BC; CN two-bar variant), its preliminary
 * PS / PSY, and the automatic reaction (AR). A climax is confirmed by the first close that has
 * rallied (fallen) the AR minimum off its extreme; AR by a 3-bar hold or a 1-ATR pullback.
 */
import { at, meanOf } from "./numeric";
import { medianFast } from "./rolling";
import type { Series } from "./series";
import { rollingArgExtreme } from "./window-stats";
import { atrPctAt, confidence, fpct, fx, margin, maxHigh, minLow } from "./event-util";
import { newStructure, type PendingClimax, type RawEvent, type ScanContext, type Structure } from "./structure-types";

/** Minimum AR move at bar i: max(arMinMove·scale, 1.5·ATR%). */
export function arMinMove(ctx: ScanContext, i: number): number {
  return Math.max(ctx.p.arMinMove * ctx.scale, 1.5 * atrPctAt(ctx.s, i));
}

/** Climax candidate at bar t, or null: the one-bar rule first, then the clustered climax. Frozen bars never qualify. */
export function climaxCandidate(
  ctx: ScanContext,
  t: number,
  wants: (side: "acc" | "dist", price: number) => boolean = () => true,
): PendingClimax | null {
  return oneBarClimax(ctx, t) ?? clusterClimax(ctx, t, wants);
}

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

/** The reasons of a one-bar (or CN two-bar) climax, built when asked for (module-level, as clusterReasons). */
function oneBarReasons(
  p: ScanContext["p"],
  acc: boolean,
  lag: number,
  frozenPrev: boolean,
  vr: number,
  sr: number,
  ret60: number,
  cp: number,
): () => string[] {
  return () => {
    const first =
      lag === 0
        ? `climactic bar: volume ${fx(vr)} and spread ${fx(sr)} the 20-bar averages (≥ ${p.climaxVr}, ≥ ${p.climaxSr})`
        : `two-bar climax: ${frozenPrev ? "limit-locked" : "climactic"} ${acc ? "down" : "up"} bar reversed the next day`;
    return acc
      ? [
          first,
          `new ${p.climaxLookback}-bar low after a ${fpct(-ret60)} fall over 60 bars, below MA50`,
          `closed in the upper ${fpct(1 - cp)} of the bar (close position ${cp.toFixed(2)})`,
        ]
      : [first, `new ${p.climaxLookback}-bar high after a ${fpct(ret60)} rise over 60 bars, above MA50`];
  };
}

/** The one-bar climax rule (DOMAIN.md §1.13 E; CN two-bar variant). */
function oneBarClimax(ctx: ScanContext, t: number): PendingClimax | null {
  const { s, p, scale } = ctx;
  if (t < p.avgWindow || at(s.frozen, t) === 1) return null;
  const c = at(s.close, t);
  const ma50 = at(s.sma50, t);
  const ret60 = at(s.ret60, t);
  if (!Number.isFinite(ma50) || !Number.isFinite(ret60)) return null;
  const cp = at(s.cp, t);
  const lookFrom = t - p.climaxLookback + 1;
  const acc = c < ma50 && ret60 <= p.scRet60 * scale;
  const dist = c > ma50 && ret60 >= p.bcRet60 * scale;
  if (!acc && !dist) return null;
  // One-bar climax on t, or (CN) a frozen / weak climactic bar t−1 reversed by t.
  for (let lag = 0; lag <= 1; lag++) {
    const k = t - lag;
    const vr = at(s.vr, k);
    const sr = at(s.sr, k);
    const frozenPrev = lag === 1 && at(s.frozen, k) === 1;
    // A locked board's volume means nothing, so after a frozen bar the reversal bar must carry the volume.
    if (lag === 1 && !(frozenPrev ? at(s.vr, t) >= 0.75 * p.climaxVr : vr >= p.climaxVr && sr >= p.climaxSr)) continue;
    if (lag === 0 && !(vr >= p.climaxVr && sr >= p.climaxSr)) continue;
    if (acc) {
      const low = lag === 0 ? at(s.low, t) : Math.min(at(s.low, k), at(s.low, t));
      if (low > minLow(ctx.s, lookFrom, t - lag - 1)) continue;
      if (lag === 1 && (!(at(s.low, t) >= at(s.low, k)) || !(at(s.cp, k) < 0.5 || frozenPrev))) continue;
      if (cp < 0.5) continue;
      const vrUse = lag === 0 ? vr : Math.max(vr, at(s.vr, t));
      return {
        side: "acc",
        index: t,
        price: low,
        vol: Math.max(at(s.volume, k), at(s.volume, t)),
        sr: lag === 0 ? sr : Math.max(sr, at(s.sr, t)),
        vr: vrUse,
        cp,
        reasons: oneBarReasons(p, true, lag, frozenPrev, vr, sr, ret60, cp),
      };
    }
    const high = lag === 0 ? at(s.high, t) : Math.max(at(s.high, k), at(s.high, t));
    if (high < maxHigh(ctx.s, lookFrom, t - lag - 1)) continue;
    if (lag === 1 && (!(at(s.high, t) <= at(s.high, k)) || !(at(s.cp, k) > 0.5 || frozenPrev))) continue;
    return {
      side: "dist",
      index: t,
      price: high,
      vol: Math.max(at(s.volume, k), at(s.volume, t)),
      sr: lag === 0 ? sr : Math.max(sr, at(s.sr, t)),
      vr: lag === 0 ? vr : Math.max(vr, at(s.vr, t)),
      cp,
      reasons: oneBarReasons(p, false, lag, frozenPrev, vr, sr, ret60, cp),
    };
  }
  return null;
}

/** Climax event (SC or BC) from a confirmed candidate. */
export function climaxEvent(ctx: ScanContext, c: PendingClimax, t: number): RawEvent {
  const move = c.side === "acc" ? at(ctx.s.close, t) / c.price - 1 : 1 - at(ctx.s.close, t) / c.price;
  const conf = confidence(0.4, [
    [0.2, margin(c.vr, ctx.p.climaxVr, 3.5)],
    [0.2, margin(c.sr, ctx.p.climaxSr, 2.5)],
    [0.2, c.side === "acc" ? margin(c.cp, 0.5, 0.9) : margin(1 - c.cp, 0.3, 0.8)],
  ]);
  const ev: RawEvent = {
    type: c.side === "acc" ? "SC" : "BC",
    index: c.index,
    confirmedAt: t,
    price: c.price,
    vr: c.vr,
    confidence: conf,
    reasons: [...c.reasons(), `confirmed by a ${fpct(move)} ${c.side === "acc" ? "rally" : "decline"} off the extreme`],
  };
  if (c.side === "dist" && c.cp <= 0.5) ev.variant = "weakClose";
  return ev;
}

/** PS (before SC) or PSY (before BC): first bar in the 30 before the climax that was a 20-bar extreme on volume. */
export function preliminaryEvent(ctx: ScanContext, c: PendingClimax, t: number): RawEvent | null {
  const { s } = ctx;
  for (let i = Math.max(20, c.index - 30); i < c.index; i++) {
    if (at(s.frozen, i) === 1) continue;
    const vr = at(s.vr, i);
    if (!(vr >= 1.5)) continue;
    const cp = at(s.cp, i);
    if (c.side === "acc") {
      if (at(s.low, i) > minLow(s, i - 19, i - 1) || cp < 0.5) continue;
    } else if (at(s.high, i) < maxHigh(s, i - 19, i - 1) || cp > 0.5) continue;
    return {
      type: c.side === "acc" ? "PS" : "PSY",
      index: i,
      confirmedAt: t,
      price: c.side === "acc" ? at(s.low, i) : at(s.high, i),
      vr,
      confidence: confidence(0.3, [[0.3, margin(vr, 1.5, 2.5)]]),
      reasons: [
        `first 20-bar ${c.side === "acc" ? "low" : "high"} on ${fx(vr)} volume within 30 bars before the climax`,
        c.side === "acc" ? "buyers stepped in (close in the upper half)" : "supply appeared (close in the lower half)",
      ],
    };
  }
  return null;
}

/** Starts a structure from a confirmed climax; the AR is tracked from the bar after the climax. */
export function openStructure(ctx: ScanContext, c: PendingClimax, t: number): Structure {
  const acc = c.side === "acc";
  let arIndex = c.index;
  let arPrice = acc ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  for (let i = c.index + 1; i <= t; i++) {
    const v = acc ? at(ctx.s.high, i) : at(ctx.s.low, i);
    if (acc ? v > arPrice : v < arPrice) {
      arPrice = v;
      arIndex = i;
    }
  }
  return newStructure(
    c.side,
    "climax",
    c.index,
    c.price,
    c.vol,
    c.sr,
    arIndex,
    arPrice,
    false,
    acc ? c.price : Number.NaN,
    acc ? Number.NaN : c.price,
  );
}

/**
 * Tracks the AR at bar t: the reaction's extreme within `arTrackBars` bars of the climax, confirmed
 * when price is back in the test zone (within `arZone` of the climax–AR span from the climax: the
 * reaction is over and the secondary test begins) or, after the tracking window, by a one-ATR
 * reversal. Returns the AR event once confirmed, else null.
 */
export function trackAr(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p } = ctx;
  const acc = st.side === "acc";
  const tracking = t <= st.climaxIndex + p.arTrackBars;
  if (tracking) {
    const v = acc ? at(s.high, t) : at(s.low, t);
    if (acc ? v > st.arPrice : v < st.arPrice) {
      st.arPrice = v;
      st.arIndex = t;
    }
  }
  if (st.arIndex === st.climaxIndex || t === st.arIndex) return null;
  const span = Math.abs(st.arPrice - st.climaxPrice);
  const move = acc ? st.arPrice / st.climaxPrice - 1 : 1 - st.arPrice / st.climaxPrice;
  if (move < arMinMove(ctx, st.climaxIndex)) return null;
  const zone = acc
    ? at(s.low, t) <= st.climaxPrice + p.arZone * span
    : at(s.high, t) >= st.climaxPrice - p.arZone * span;
  const atr = at(s.atr, t);
  const reversed = !tracking && (acc ? at(s.close, t) <= st.arPrice - atr : at(s.close, t) >= st.arPrice + atr);
  if (!(zone || reversed)) return null;
  st.arConfirmed = true;
  if (acc) st.resistance = st.arPrice;
  else st.support = st.arPrice;
  const ev: RawEvent = {
    type: "AR",
    index: st.arIndex,
    confirmedAt: t,
    price: st.arPrice,
    vr: at(s.vr, st.arIndex),
    confidence: confidence(0.5, [
      [0.3, margin(move, arMinMove(ctx, st.climaxIndex), 0.12)],
      [0.2, zone ? 1 : 0.5],
    ]),
    reasons: [
      `${acc ? "rally" : "decline"} of ${fpct(move)} within ${st.arIndex - st.climaxIndex} bars of the climax`,
      zone
        ? `the reaction ended: price came back within ${fpct(p.arZone)} of the span from the climax`
        : `reversed by one ATR after the ${p.arTrackBars}-bar tracking window`,
      acc ? "its high sets resistance (Creek)" : "its low sets support (Ice)",
    ],
  };
  if (!acc) ev.variant = "down";
  return ev;
}
