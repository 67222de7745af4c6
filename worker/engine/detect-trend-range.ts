/**
 * Re-accumulation and re-distribution (DOMAIN.md §1.13 D: a range in a trend without a climax):
 * an uptrend's `reExtremeBars`-bar high (120) on a rising MA50 followed by a reaction of ≥ 6% (board-scaled) whose low
 * holds for three bars and is rallied off by the AR minimum; the reaction low is the AR and sets
 * support, the top sets resistance. Re-distribution mirrors it. Opens an event-anchored structure.
 */
import { arMinMove } from "./detect-climax";
import { atrPctAt, confidence, fpct, fx, margin, maxHigh, minLow } from "./event-util";
import { at, meanOf } from "./numeric";
import type { Series } from "./series";
import { newStructure, type RawEvent, type ScanContext, type Structure } from "./structure-types";
import { rollingArgExtreme } from "./window-stats";

/** A structure opened in a trend, with its AR. */
export interface TrendRange {
  structure: Structure;
  ar: RawEvent;
  /** Set when effort flipped the side: the climax the trend extreme turned out to be. */
  climax?: RawEvent;
}

/** Bars the AR extreme must hold before the structure can open. */
const HOLD = 3;

/** Largest volume and spread ratio over bars [from, to]: the reference the range's tests must undercut. */
function legEffort(ctx: ScanContext, from: number, to: number): { vol: number; sr: number } {
  let vol = 0;
  let sr = 0;
  for (let i = from; i <= to; i++) {
    vol = Math.max(vol, at(ctx.s.volume, i));
    const r = at(ctx.s.sr, i);
    if (Number.isFinite(r)) sr = Math.max(sr, r);
  }
  return { vol, sr };
}

/**
 * The windows trendRangeSide asks about on every bar, for one series at a time (built on first use,
 * rebuilt for another series or other window lengths): the latest index of the lowest low and of
 * the highest high over the reaction window with its hold (`ar` bars ending at each bar) and over
 * the leg before it (`leg` bars). `ok` is false when the lows or highs hold a NaN; trendRangeSide then scans.
 */
const windows = {
  s: null as Series | null,
  ar: 0,
  leg: 0,
  ok: false,
  arLow: new Int32Array(0),
  arHigh: new Int32Array(0),
  legLow: new Int32Array(0),
  legHigh: new Int32Array(0),
};

function windowsOf(s: Series, ar: number, leg: number): typeof windows {
  const w = windows;
  if (w.s === s && w.ar === ar && w.leg === leg) return w;
  if (w.arLow.length < s.n) {
    w.arLow = new Int32Array(s.n);
    w.arHigh = new Int32Array(s.n);
    w.legLow = new Int32Array(s.n);
    w.legHigh = new Int32Array(s.n);
  }
  w.s = s;
  w.ar = ar;
  w.leg = leg;
  w.ok =
    s.low.length === s.n &&
    s.high.length === s.n &&
    rollingArgExtreme(s.low, ar, 1, true, w.arLow) &&
    rollingArgExtreme(s.high, ar, -1, true, w.arHigh) &&
    rollingArgExtreme(s.low, leg, 1, true, w.legLow) &&
    rollingArgExtreme(s.high, leg, -1, true, w.legHigh);
  return w;
}

/** A re-accumulation (side "acc") or re-distribution ("dist") range that becomes knowable at bar t, or null. */
export function trendRangeAt(ctx: ScanContext, t: number): TrendRange | null {
  return trendRangeSide(ctx, t, "acc") ?? trendRangeSide(ctx, t, "dist");
}

function trendRangeSide(ctx: ScanContext, t: number, side: "acc" | "dist"): TrendRange | null {
  const { s, p, scale } = ctx;
  const acc = side === "acc";
  const lo = t - p.reReactionBars;
  if (lo < p.climaxLookback + p.reTrendBars) return null;
  // The windows below as tables (the latest extreme, as the backward scans with a strict comparison
  // keep it) where the series has them and the windows lie inside it.
  const w = lo >= 0 && t - HOLD >= lo && p.reLegBars >= 1 ? windowsOf(s, p.reReactionBars + 1, p.reLegBars) : null;
  // The AR: the reaction's extreme, held for HOLD bars and not exceeded since. From the table: the
  // latest extreme of [lo, t] — every bar after it is strictly beyond it — is the AR when it lies at
  // least HOLD bars back (it is then the latest extreme of [lo, t − HOLD] too); nearer, none held.
  let k = t - HOLD;
  if (w?.ok) {
    k = at(acc ? w.arLow : w.arHigh, t);
    if (k > t - HOLD) return null;
  } else {
    for (let i = t - HOLD; i >= lo; i--) if (acc ? at(s.low, i) < at(s.low, k) : at(s.high, i) > at(s.high, k)) k = i;
    const held = acc ? at(s.low, k) : at(s.high, k);
    for (let i = k + 1; i <= t; i++) if (acc ? !(at(s.low, i) > held) : !(at(s.high, i) < held)) return null;
  }
  const arPrice = acc ? at(s.low, k) : at(s.high, k);
  // The trend extreme before it (the range's other side), up to `reLegBars` bars before the AR.
  let top = k - 1;
  if (w?.ok && k - p.reLegBars >= 1) top = at(acc ? w.legHigh : w.legLow, k - 1);
  else
    for (let i = k - 1; i >= k - p.reLegBars && i > 0; i--)
      if (acc ? at(s.high, i) > at(s.high, top) : at(s.low, i) < at(s.low, top)) top = i;
  if (top >= k || k - top < 2) return null;
  const ext = acc ? at(s.high, top) : at(s.low, top);
  // The constant-time tests first (trend, depth, rally), the window scans last: every test only
  // rejects, so their order changes no answer, and on most bars one side fails on its MA50.
  const ma = at(s.sma50, top);
  const maPrev = at(s.sma50, top - p.reTrendBars);
  if (!Number.isFinite(ma) || !Number.isFinite(maPrev)) return null;
  if (acc ? !(at(s.close, top) > ma && ma > maPrev) : !(at(s.close, top) < ma && ma < maPrev)) return null;
  const depth = acc ? 1 - arPrice / ext : arPrice / ext - 1;
  const minDepth = Math.max(p.reMinDepth * scale, 2.5 * atrPctAt(s, top));
  if (depth < minDepth || depth > p.reMaxDepth * scale) return null;
  const rally = acc ? at(s.close, t) / arPrice - 1 : 1 - at(s.close, t) / arPrice;
  if (rally < arMinMove(ctx, k)) return null;
  if (acc ? minLow(s, top + 1, k - 1) < arPrice : maxHigh(s, top + 1, k - 1) > arPrice) return null;
  const prior = acc ? maxHigh(s, top - p.reExtremeBars + 1, top - 1) : minLow(s, top - p.reExtremeBars + 1, top - 1);
  if (acc ? ext < prior : ext > prior) return null;
  const effort = legEffort(ctx, top + 1, k);
  // Context decides the side: a reaction that carries more volume than the leg before it is supply
  // (demand) taking over, not a pause — the trend extreme was the climax of the other side.
  const legBars = k - top;
  const reactionVol = meanOf(s.volume, top + 1, k + 1);
  const priorVol = meanOf(s.volume, Math.max(0, top - Math.max(legBars, 10) + 1), top + 1);
  if (priorVol > 0 && reactionVol > p.heavyReaction * priorVol)
    return flipped(ctx, side === "acc" ? "dist" : "acc", top, ext, k, arPrice, t, reactionVol / priorVol, depth);
  // Position decides it too: the first reaction after a doubling within the year is a top's, not a pause's.
  const rise = acc ? ext / minLow(s, top - p.reYearBars + 1, top - 1) - 1 : 0;
  if (rise >= p.reExtendedRise * scale)
    return flipped(ctx, "dist", top, ext, k, arPrice, t, reactionVol / priorVol, depth, rise);
  const structure = newStructure(
    side,
    "trend",
    top,
    arPrice,
    effort.vol,
    effort.sr,
    k,
    arPrice,
    true,
    acc ? arPrice : ext,
    acc ? ext : arPrice,
  );
  const ar: RawEvent = {
    type: "AR",
    index: k,
    confirmedAt: t,
    price: arPrice,
    vr: at(s.vr, k),
    confidence: confidence(0.45, [
      [0.25, margin(depth, minDepth, 2 * minDepth)],
      [0.2, margin(rally, arMinMove(ctx, k), 2 * arMinMove(ctx, k))],
    ]),
    reasons: [
      acc
        ? `reaction of ${fpct(depth)} from a ${p.reExtremeBars}-bar high in an uptrend (rising MA50), no climax: re-accumulation`
        : `rally of ${fpct(depth)} from a ${p.reExtremeBars}-bar low in a downtrend (falling MA50), no climax: re-distribution`,
      `its ${acc ? "low sets support" : "high sets resistance"}; held ${t - k} bars and ${acc ? "rallied" : "fell"} ${fpct(rally)} off it`,
    ],
  };
  if (acc) ar.variant = "down";
  return { structure, ar };
}

/**
 * The side flipped by effort: the trend extreme at `top` becomes a BC (an SC when `side` is "acc")
 * and the heavy reaction's extreme at `k` its AR; a climax-origin structure opens on them.
 */
function flipped(
  ctx: ScanContext,
  side: "acc" | "dist",
  top: number,
  ext: number,
  k: number,
  arPrice: number,
  t: number,
  effortRatio: number,
  depth: number,
  /** Set when the extent of the advance, not effort, flipped the side. */
  rise?: number,
): TrendRange {
  const { s } = ctx;
  const acc = side === "acc";
  const climax = legEffort(ctx, Math.max(0, top - 4), top);
  const structure = newStructure(
    side,
    "climax",
    top,
    ext,
    Math.max(climax.vol, legEffort(ctx, top + 1, k).vol),
    climax.sr,
    k,
    arPrice,
    true,
    acc ? ext : arPrice,
    acc ? arPrice : ext,
  );
  const reasons = [
    rise === undefined
      ? `the ${acc ? "rally" : "reaction"} off the ${acc ? "low" : "high"} carried ${fx(effortRatio)} the volume of the leg before it: ${acc ? "demand" : "supply"} took over`
      : `the first reaction after a ${fpct(rise)} advance from the yearly low: read as a top's, not a pause's`,
    `${fpct(depth)} ${acc ? "rally" : "decline"} from the trend extreme, held ${t - k} bars`,
  ];
  const climaxEv: RawEvent = {
    type: acc ? "SC" : "BC",
    index: top,
    confirmedAt: t,
    price: ext,
    vr: at(s.vr, top),
    confidence: confidence(0.4, [[0.3, rise === undefined ? margin(effortRatio, ctx.p.heavyReaction, 2) : 0.5]]),
    reasons: [
      `${ctx.p.reExtremeBars}-bar ${acc ? "low in a downtrend" : "high in an uptrend"}, read as a climax by what followed`,
      ...reasons,
    ],
  };
  const ar: RawEvent = {
    type: "AR",
    index: k,
    confirmedAt: t,
    price: arPrice,
    vr: at(s.vr, k),
    confidence: confidence(0.45, [[0.3, margin(effortRatio, ctx.p.heavyReaction, 2)]]),
    reasons: [...reasons, acc ? "its high sets resistance (Creek)" : "its low sets support (Ice)"],
  };
  if (!acc) ar.variant = "down";
  return { structure, ar, climax: climaxEv };
}
