/**
 * Distribution events after the AR (DOMAIN.md §1.13 E, mirror): secondary tests of the BC,
 * UT / UTAD with a close back inside, SOW and LPSY. Each detector reads bars ≤ t.
 */
import { at } from "./numeric";
import { confidence, fpct, fx, isSwingHigh, margin } from "./event-util";
import type { RawEvent, ScanContext, Structure } from "./structure-types";

/** Secondary test of the BC, judged at bar t−2: a lower-volume swing high within 2% of the BC high. */
export function detectDistST(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const i = t - 2;
  if (i <= st.arIndex || i > st.arIndex + p.stWindow || at(s.frozen, i) === 1) return null;
  if (st.lastAwayIndex <= st.lastStIndex || st.lastAwayIndex >= i) return null;
  const high = at(s.high, i);
  const dist = Math.abs(high - st.climaxPrice) / st.climaxPrice;
  if (high >= st.resistance * (1 + p.springMinPen * scale)) return null;
  const lower = dist > p.stBand * scale;
  if (lower && !(high < st.climaxPrice && st.climaxPrice - high <= p.stZoneDist * (st.resistance - st.support)))
    return null;
  const vol = at(s.volume, i);
  if (vol > p.stMaxVolShare * st.climaxVol || !(at(s.sr, i) < st.climaxSr)) return null;
  if (lower && !(at(s.vr, i) <= p.stZoneVr)) return null;
  if (!(at(s.cp, i) <= 1 - p.stCloseOff)) return null;
  if (at(s.close, i) > st.climaxPrice * 1.01 || !isSwingHigh(s, i, 3, 2)) return null;
  return {
    type: "ST",
    index: i,
    confirmedAt: t,
    price: high,
    vr: at(s.vr, i),
    confidence: confidence(0.4, [
      [0.3, margin(1 - vol / st.climaxVol, 1 - p.stMaxVolShare, 0.6)],
      [0.3, margin(p.stBand * scale - dist, 0, p.stBand * scale)],
    ]),
    reasons: [
      lower
        ? `lower high ${fpct(dist)} under the BC high, in the upper ${fpct(p.stZoneDist)} of the range`
        : `high within ${fpct(dist)} of the BC high (≤ ${fpct(p.stBand * scale)})`,
      `volume ${fpct(vol / st.climaxVol)} of the BC volume, narrower spread`,
      "rejected: the next two highs were lower",
    ],
  };
}

/**
 * UT / UTAD: a high 0.5%…5% above resistance on ≥ 1.5× volume with an upper shadow ≥ 35% of the bar,
 * confirmed by a close back below resistance within 3 bars. UTAD when in phase C territory
 * (≥ 15 bars after the AR and at least one ST); otherwise UT.
 */
export function detectUpthrust(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const R = st.resistance;
  const high = at(s.high, t);
  if (st.pendingUt && t > st.pendingUt.index + 3) st.pendingUt = null;
  const over = high / R - 1;
  if (over > p.springMinPen * scale && over <= p.springMaxPen * scale && at(s.frozen, t) !== 1) {
    const range = high - at(s.low, t);
    const shadow = range > 0 ? (high - Math.max(at(s.open, t), at(s.close, t))) / range : 0;
    if (at(s.vr, t) >= p.utVr && shadow >= p.utShadow && (!st.pendingUt || high > st.pendingUt.price)) {
      st.pendingUt = { index: t, price: high };
    }
  }
  const cand = st.pendingUt;
  if (!cand || !(at(s.close, t) < R)) return null;
  st.pendingUt = null;
  const k = cand.index;
  const utad = k >= st.arIndex + p.springMinBarsAfterAr && st.stCount >= 1;
  const vr = at(s.vr, k);
  const range = at(s.high, k) - at(s.low, k);
  const shadow = range > 0 ? (at(s.high, k) - Math.max(at(s.open, k), at(s.close, k))) / range : 0;
  st.lastUtIndex = k;
  return {
    type: utad ? "UTAD" : "UT",
    index: k,
    confirmedAt: t,
    price: cand.price,
    vr,
    confidence: confidence(0.45, [
      [0.2, margin(vr, p.utVr, 3)],
      [0.2, margin(shadow, p.utShadow, 0.7)],
      [0.15, t === k ? 1 : 0.5],
    ]),
    reasons: [
      `pushed ${fpct(cand.price / R - 1)} above resistance on ${fx(vr)} volume`,
      `upper shadow ${fpct(shadow)} of the bar (≥ ${fpct(p.utShadow)})`,
      `closed back below resistance ${t === k ? "on the same bar" : `${t - k} bar(s) later`}`,
      utad ? "after the range matured (phase C): upthrust after distribution" : "inside phase B",
    ],
  };
}

/** SOW: a wide, high-volume bar closing ≥ 1% below support near its low. */
export function detectSOW(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  if (at(s.frozen, t) === 1) return null;
  const S = st.support;
  const c = at(s.close, t);
  const vr = at(s.vr, t);
  const sr = at(s.sr, t);
  const cp = at(s.cp, t);
  if (c > S * (1 - p.breakMargin * scale) || !(sr >= p.breakSr) || !(vr >= p.breakVr) || !(cp <= p.sowCp)) return null;
  return {
    type: "SOW",
    index: t,
    confirmedAt: t,
    price: c,
    vr,
    confidence: confidence(0.45, [
      [0.2, margin(vr, p.breakVr, 3)],
      [0.2, margin(sr, p.breakSr, 2)],
      [0.15, margin(p.sowCp - cp, 0, p.sowCp)],
    ]),
    reasons: [
      `closed ${fpct(1 - c / S)} below support (≥ ${fpct(p.breakMargin * scale)})`,
      `volume ${fx(vr)}, spread ${fx(sr)}, close position ${cp.toFixed(2)}`,
    ],
  };
}

/**
 * LPSY after an SOW: the highest high of a weak rally within 10 bars of the SOW that stays ≤ 2% above
 * support on ≤ 0.8× volume, confirmed by a close ≥ 1% below that high with close position ≤ 0.4.
 */
export function detectLPSY(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const b = st.breakoutIndex;
  if (b < 0 || t <= b + 2) return null;
  let trough = b;
  for (let i = b + 1; i < t; i++) if (at(s.low, i) < at(s.low, trough)) trough = i;
  let hiIdx = -1;
  for (let i = trough + 1; i <= t; i++) if (hiIdx < 0 || at(s.high, i) > at(s.high, hiIdx)) hiIdx = i;
  if (hiIdx < 0 || hiIdx > b + p.pullbackWindow || t - hiIdx < 2) return null;
  const high = at(s.high, hiIdx);
  if (high - at(s.low, trough) < at(s.atr, hiIdx)) return null;
  if (high > st.support * (1 + 0.02 * scale)) return null;
  const vr = at(s.vr, hiIdx);
  if (!(vr <= 0.8)) return null;
  const c = at(s.close, t);
  if (c > high * 0.99 || at(s.cp, t) > 0.4) return null;
  return {
    type: "LPSY",
    index: hiIdx,
    confirmedAt: t,
    price: high,
    vr,
    confidence: confidence(0.5, [
      [0.3, margin(0.8 - vr, 0, 0.4)],
      [0.2, margin(0.4 - at(s.cp, t), 0, 0.4)],
    ]),
    reasons: [
      `rally failed ${fpct(high / st.support - 1)} from broken support`,
      `rally volume ${fx(vr)} the average (≤ 0.80×)`,
      `confirmed ${t - hiIdx} bars later by a lower close`,
    ],
  };
}

/** Bars between two SOWs of one phase D: a new low days after the last one is the same leg. */
export const FOLLOW_GAP = 10;

/**
 * A further SOW in phase D (DOMAIN.md §1.5: the markdown out of a distribution prints more than one):
 * a wide, high-volume bar closing near its low below support that makes the lowest low since the
 * breakout, at least `FOLLOW_GAP` bars after the last SOW.
 */
export function detectFollowSOW(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const b = st.breakoutIndex;
  const last = st.lastBreakIndex ?? b;
  if (b < 0 || t - last < FOLLOW_GAP || at(s.frozen, t) === 1) return null;
  const c = at(s.close, t);
  const vr = at(s.vr, t);
  const sr = at(s.sr, t);
  const cp = at(s.cp, t);
  if (c > st.support * (1 - p.breakMargin * scale) || !(sr >= p.breakSr) || !(vr >= p.breakVr) || !(cp <= p.sowCp))
    return null;
  // The new low breaks a pause: the lowest low since the breakout is at least `FOLLOW_GAP` bars old (first set then; a bar that only equals it is part of the pause).
  const low = at(s.low, t);
  let k = b;
  for (let i = b + 1; i < t; i++) if (at(s.low, i) < at(s.low, k)) k = i;
  if (at(s.low, k) <= low || t - k < FOLLOW_GAP) return null;
  st.lastBreakIndex = t;
  return {
    type: "SOW",
    index: t,
    confirmedAt: t,
    price: c,
    vr,
    variant: "markdown",
    confidence: confidence(0.4, [
      [0.2, margin(vr, p.breakVr, 3)],
      [0.2, margin(sr, p.breakSr, 2)],
      [0.15, margin(p.sowCp - cp, 0, p.sowCp)],
    ]),
    reasons: [
      `a new low ${t - b} bars after the first SOW, closed ${fpct(1 - c / st.support)} below support`,
      `volume ${fx(vr)}, spread ${fx(sr)}, close position ${cp.toFixed(2)}: supply carried the markdown on`,
    ],
  };
}
