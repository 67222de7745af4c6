/**
 * Re-accumulation and re-distribution (DOMAIN.md §1.13 D: a range in a trend without a climax):
 * an uptrend's 60-bar high on a rising MA50 followed by a reaction of ≥ 6% (board-scaled) whose low
 * holds for three bars and is rallied off by the AR minimum; the reaction low is the AR and sets
 * support, the top sets resistance. Re-distribution mirrors it. Opens an event-anchored structure.
 */
import { arMinMove } from "./detect-climax";
import { atrPctAt, confidence, fpct, margin, maxHigh, minLow } from "./event-util";
import { at } from "./numeric";
import type { RawEvent, ScanContext, Structure } from "./structure-types";

/** A structure opened in a trend, with its AR. */
export interface TrendRange {
  structure: Structure;
  ar: RawEvent;
}

/** Bars the AR extreme must hold before the structure can open. */
const HOLD = 3;

function blank(side: "acc" | "dist"): Omit<Structure, "climaxIndex" | "climaxPrice" | "climaxVol" | "climaxSr"> {
  return {
    side,
    origin: "trend",
    arIndex: -1,
    arPrice: Number.NaN,
    arConfirmed: true,
    support: Number.NaN,
    resistance: Number.NaN,
    stCount: 0,
    lastStIndex: -1,
    lastAwayIndex: -1,
    trapIndex: -1,
    trapPrice: Number.NaN,
    trapVol: Number.NaN,
    trapFailed: false,
    pendingTrap: null,
    testDone: false,
    pendingUt: null,
    lastUtIndex: -1,
    breakoutIndex: -1,
    pullbackDone: false,
    beyondCount: 0,
    eIndex: -1,
    failCount: 0,
  };
}

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

/** A re-accumulation (side "acc") or re-distribution ("dist") range that becomes knowable at bar t, or null. */
export function trendRangeAt(ctx: ScanContext, t: number): TrendRange | null {
  return trendRangeSide(ctx, t, "acc") ?? trendRangeSide(ctx, t, "dist");
}

function trendRangeSide(ctx: ScanContext, t: number, side: "acc" | "dist"): TrendRange | null {
  const { s, p, scale } = ctx;
  const acc = side === "acc";
  const lo = t - p.reReactionBars;
  if (lo < p.climaxLookback + p.reTrendBars) return null;
  // The AR: the reaction's extreme, held for HOLD bars and not exceeded since.
  let k = t - HOLD;
  for (let i = t - HOLD; i >= lo; i--) if (acc ? at(s.low, i) < at(s.low, k) : at(s.high, i) > at(s.high, k)) k = i;
  const arPrice = acc ? at(s.low, k) : at(s.high, k);
  for (let i = k + 1; i <= t; i++) if (acc ? !(at(s.low, i) > arPrice) : !(at(s.high, i) < arPrice)) return null;
  // The trend extreme before it (the range's other side).
  let top = k - 1;
  for (let i = k - 1; i >= k - p.reReactionBars && i > 0; i--)
    if (acc ? at(s.high, i) > at(s.high, top) : at(s.low, i) < at(s.low, top)) top = i;
  if (top >= k || k - top < 2) return null;
  const ext = acc ? at(s.high, top) : at(s.low, top);
  if (acc ? minLow(s, top + 1, k - 1) < arPrice : maxHigh(s, top + 1, k - 1) > arPrice) return null;
  const prior = acc ? maxHigh(s, top - p.climaxLookback + 1, top - 1) : minLow(s, top - p.climaxLookback + 1, top - 1);
  if (acc ? ext < prior : ext > prior) return null;
  const ma = at(s.sma50, top);
  const maPrev = at(s.sma50, top - p.reTrendBars);
  if (!Number.isFinite(ma) || !Number.isFinite(maPrev)) return null;
  if (acc ? !(at(s.close, top) > ma && ma > maPrev) : !(at(s.close, top) < ma && ma < maPrev)) return null;
  const depth = acc ? 1 - arPrice / ext : arPrice / ext - 1;
  const minDepth = Math.max(p.reMinDepth * scale, 2.5 * atrPctAt(s, top));
  if (depth < minDepth || depth > p.reMaxDepth * scale) return null;
  const rally = acc ? at(s.close, t) / arPrice - 1 : 1 - at(s.close, t) / arPrice;
  if (rally < arMinMove(ctx, k)) return null;
  const effort = legEffort(ctx, top + 1, k);
  const structure: Structure = {
    ...blank(side),
    climaxIndex: top,
    climaxPrice: arPrice,
    climaxVol: effort.vol,
    climaxSr: effort.sr,
    arIndex: k,
    arPrice,
    support: acc ? arPrice : ext,
    resistance: acc ? ext : arPrice,
  };
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
        ? `reaction of ${fpct(depth)} from a 60-bar high in an uptrend (rising MA50), no climax: re-accumulation`
        : `rally of ${fpct(depth)} from a 60-bar low in a downtrend (falling MA50), no climax: re-distribution`,
      `its ${acc ? "low sets support" : "high sets resistance"}; held ${t - k} bars and ${acc ? "rallied" : "fell"} ${fpct(rally)} off it`,
    ],
  };
  if (acc) ar.variant = "down";
  return { structure, ar };
}
