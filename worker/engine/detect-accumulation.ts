/**
 * Accumulation events after the AR (DOMAIN.md §1.13 E): secondary tests, Spring (#1/#2/#3) with
 * reclaim, Test of the Spring, SOS/JAC and the LPS/BU pullback. Each detector reads bars ≤ t and
 * returns the event that becomes knowable at t.
 */
import { at } from "./numeric";
import { medianFast } from "./rolling";
import { atrPctAt, confidence, fpct, fx, isSwingLow, margin } from "./event-util";
import type { RawEvent, ScanContext, Structure } from "./structure-types";

/**
 * Secondary test of the SC, judged at bar t−2 (a swing low needs two higher lows after it): a return
 * to the SC low (within `stBand`), a higher low in the lower `stZone` of the range on dry volume, or,
 * before phase C can begin (`springMinBarsAfterAr`), an undercut of support by at most `stUndercutMax`
 * (and 2 ATR) that closes back above it — too early for a Spring, the test of a climax still being
 * absorbed. Volume is lighter than the climax's (`stMaxVolShare`), or no heavier than `stNarrowVolShare`
 * of it on a spread at most `stNarrowSr` of the climax's: effort with no result.
 */
export function detectAccST(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const i = t - 2;
  if (i <= st.arIndex || i > st.arIndex + p.stWindow || at(s.frozen, i) === 1) return null;
  if (st.lastAwayIndex <= st.lastStIndex || st.lastAwayIndex >= i) return null;
  const low = at(s.low, i);
  const dist = Math.abs(low - st.climaxPrice) / st.climaxPrice;
  const pen = (st.support - low) / st.support;
  const under = pen >= p.springMinPen * scale;
  if (under) {
    const early = i < st.arIndex + p.springMinBarsAfterAr;
    const maxPen = Math.min(p.stUndercutMax * scale, 2 * atrPctAt(s, i));
    if (!early || pen > maxPen || at(s.close, i) < st.support) return null;
  }
  const higher = !under && dist > p.stBand * scale;
  if (higher && !(low > st.climaxPrice && low - st.climaxPrice <= p.stZone * (st.resistance - st.support))) return null;
  const vol = at(s.volume, i);
  const sr = at(s.sr, i);
  const light = vol <= p.stMaxVolShare * st.climaxVol;
  const narrow = vol <= p.stNarrowVolShare * st.climaxVol && sr <= p.stNarrowSr * st.climaxSr;
  if (!(light || narrow) || !(sr < st.climaxSr)) return null;
  if (higher && !(at(s.vr, i) <= p.stZoneVr)) return null;
  if (!(at(s.cp, i) >= p.stCloseOff)) return null;
  if ((!under && at(s.close, i) < st.climaxPrice * 0.99) || !isSwingLow(s, i, 3, 2)) return null;
  const volShare = vol / st.climaxVol;
  return {
    type: "ST",
    index: i,
    confirmedAt: t,
    price: low,
    vr: at(s.vr, i),
    ...(under ? { variant: "undercut" } : {}),
    confidence: confidence(0.4, [
      [0.3, margin(1 - volShare, 1 - p.stMaxVolShare, 0.6)],
      [0.3, margin(p.stBand * scale - dist, 0, p.stBand * scale)],
    ]),
    reasons: [
      under
        ? `undercut support by ${fpct(pen)} ${i - st.arIndex} bars after the AR (before phase C) and closed back above it`
        : higher
          ? `higher low ${fpct(dist)} above the SC low, in the lower ${fpct(p.stZone)} of the range`
          : `low within ${fpct(dist)} of the SC low (≤ ${fpct(p.stBand * scale)})`,
      light
        ? `volume ${fpct(volShare)} of the SC volume (≤ ${fpct(p.stMaxVolShare)})${higher ? `, ${fx(at(s.vr, i))} the 20-bar average` : ""}, narrower spread`
        : `volume ${fpct(volShare)} of the SC volume on ${fpct(sr / st.climaxSr)} of its spread (≤ ${fpct(p.stNarrowSr)}): effort without result`,
      "held: the next two lows were higher",
    ],
  };
}

/** Spring type from the Spring bar (wyckoffsmi typology). */
function springType(vr: number, sr: number, penAtr: number): "#1" | "#2" | "#3" {
  if (vr <= 0.7 && sr <= 1.0) return "#3";
  if (vr >= 1.5 || penAtr > 1.5) return "#1";
  return "#2";
}

/**
 * Spring: a dip below support by 0.3%…min(5%, 2 ATR) at least 15 bars after the AR, reclaimed
 * (close ≥ support with close position ≥ 0.5) on the same bar or within 2 bars; a #2 needs a spread
 * of at least `spring2MinSr`.
 */
export function detectSpring(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  if (t < st.arIndex + p.springMinBarsAfterAr) return null;
  const S = st.support;
  const low = at(s.low, t);
  const maxPen = Math.min(p.springMaxPen * scale, 2 * atrPctAt(s, t));
  const pen = (S - low) / S;
  const pending = st.pendingTrap;
  if (pending && t > pending.index + p.reclaimBars) st.pendingTrap = null;
  if (pen >= p.springMinPen * scale && (!st.pendingTrap || low < st.pendingTrap.price)) {
    st.pendingTrap = pen <= maxPen && at(s.frozen, t) !== 1 ? { index: t, price: low } : null;
  }
  const cand = st.pendingTrap;
  if (!cand || at(s.close, t) < S || at(s.cp, t) < 0.5) return null;
  st.pendingTrap = null;
  const k = cand.index;
  const vr = at(s.vr, k);
  const sr = at(s.sr, k);
  const candPen = (S - cand.price) / S;
  const penAtr = (S - cand.price) / at(s.atr, k);
  const type = springType(vr, sr, penAtr);
  // A #2 Spring shows "good spread and volume" (wyckoffsmi): a dip on a narrow bar that is not a #3's
  // dry one (average volume, spread under `spring2MinSr`) is neither a shakeout nor a test of no supply.
  if (type === "#2" && sr < p.spring2MinSr) return null;
  st.trapIndex = k;
  st.trapPrice = cand.price;
  st.trapVol = at(s.volume, k);
  return {
    type: "Spring",
    index: k,
    confirmedAt: t,
    price: cand.price,
    vr,
    variant: type,
    confidence: confidence(0.5, [
      [0.2, type === "#3" ? 1 : 0.5],
      [0.15, margin(at(s.cp, t), 0.5, 0.9)],
      [0.15, t === k ? 1 : 0.5],
    ]),
    reasons: [
      `dipped ${fpct(candPen)} below support (${penAtr.toFixed(2)} ATR) ${k - st.arIndex} bars after the AR`,
      `reclaimed support ${t === k ? "on the same bar" : `${t - k} bar(s) later`} with close position ${at(s.cp, t).toFixed(2)}`,
      `${type} spring: volume ${fx(vr)}, spread ${fx(sr)}${type === "#3" ? " (no test required)" : " (needs a test)"}`,
    ],
  };
}

/** Test of the Spring, judged at bar t−2: a higher low within 3% of the Spring low on lower volume. */
export function detectTest(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const i = t - 2;
  if (st.trapIndex < 0 || i < st.trapIndex + p.testFrom || i > st.trapIndex + p.testTo) return null;
  if (at(s.frozen, i) === 1) return null;
  const low = at(s.low, i);
  if (low < st.trapPrice || low > st.trapPrice * (1 + p.testBand * scale)) return null;
  const vol = at(s.volume, i);
  const vr = at(s.vr, i);
  if (!(vol <= 0.7 * st.trapVol || vr <= 0.8) || at(s.cp, i) < 0.5 || !isSwingLow(s, i, 2, 2)) return null;
  return {
    type: "Test",
    index: i,
    confirmedAt: t,
    price: low,
    vr,
    confidence: confidence(0.5, [
      [0.25, margin(1 - vol / st.trapVol, 0.3, 0.7)],
      [0.25, margin(at(s.cp, i), 0.5, 0.9)],
    ]),
    reasons: [
      `higher low ${fpct(low / st.trapPrice - 1)} above the Spring low, ${i - st.trapIndex} bars later`,
      `volume ${fpct(vol / st.trapVol)} of the Spring's (${fx(vr)} average)`,
      `closed off the low (close position ${at(s.cp, i).toFixed(2)})`,
    ],
  };
}

/**
 * A later secondary test in phase C: after the Spring's own Test window (`testTo`), price that
 * travelled away from support comes back to within `testBand` above the Spring low and holds it
 * (a swing low closing in its upper half) on less volume than the climax: the lows tested again.
 */
export function detectSpringZoneST(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const i = t - 2;
  if (st.trapIndex < 0 || i <= st.trapIndex + p.testTo || at(s.frozen, i) === 1) return null;
  if (st.lastAwayIndex <= Math.max(st.lastStIndex, st.trapIndex) || st.lastAwayIndex >= i) return null;
  const low = at(s.low, i);
  const above = low / st.trapPrice - 1;
  if (above < 0 || above > p.testBand * scale) return null;
  const vol = at(s.volume, i);
  if (!(vol <= p.stMaxVolShare * st.climaxVol) || at(s.cp, i) < 0.5 || !isSwingLow(s, i, 3, 2)) return null;
  const volShare = vol / st.climaxVol;
  return {
    type: "ST",
    index: i,
    confirmedAt: t,
    price: low,
    vr: at(s.vr, i),
    variant: "afterSpring",
    confidence: confidence(0.4, [
      [0.3, margin(1 - volShare, 1 - p.stMaxVolShare, 0.6)],
      [0.3, margin(p.testBand * scale - above, 0, p.testBand * scale)],
    ]),
    reasons: [
      `back to ${fpct(above)} above the Spring low ${i - st.trapIndex} bars after it, after a rally away from support`,
      `volume ${fpct(volShare)} of the SC volume (≤ ${fpct(p.stMaxVolShare)}), closed in the upper half (${at(s.cp, i).toFixed(2)})`,
      "held: the next two lows were higher",
    ],
  };
}

/** SOS / JAC: a wide, high-volume bar closing ≥ 1% above resistance near its high. */
export function detectSOS(ctx: ScanContext, st: Structure, t: number, afterSpring: boolean): RawEvent | null {
  const { s, p, scale } = ctx;
  if (at(s.frozen, t) === 1) return null;
  const R = st.resistance;
  const c = at(s.close, t);
  const vr = at(s.vr, t);
  const sr = at(s.sr, t);
  const cp = at(s.cp, t);
  if (c < R * (1 + p.breakMargin * scale) || !(sr >= p.breakSr) || !(vr >= p.breakVr) || !(cp >= p.sosCp)) return null;
  const v60 = medianFast(s.volume, Math.max(0, t - 60), t);
  const strong = at(s.pct, t) >= 0.06 && at(s.volume, t) / v60 >= 3;
  return {
    type: "SOS",
    index: t,
    confirmedAt: t,
    price: c,
    vr,
    variant: afterSpring ? "JAC" : strong ? "strong" : undefined,
    confidence: confidence(0.4, [
      [0.2, margin(vr, p.breakVr, 3)],
      [0.2, margin(sr, p.breakSr, 2)],
      [0.1, margin(cp, p.sosCp, 1)],
      [0.1, afterSpring ? 1 : 0],
    ]),
    reasons: [
      `closed ${fpct(c / R - 1)} above resistance (≥ ${fpct(p.breakMargin * scale)})`,
      `volume ${fx(vr)}, spread ${fx(sr)}, close position ${cp.toFixed(2)}`,
      afterSpring ? "jump across the creek after a Spring (phase C → D)" : "breakout without a Spring (noSpring)",
    ],
  };
}

/**
 * LPS / BU after an SOS: the lowest low of a pullback within 10 bars of the SOS, on dry volume,
 * confirmed by a close ≥ 1% above that low with close position ≥ 0.6 at least 2 bars later.
 * BU when the low is back at resistance (−2%…+3%), LPS when it holds above the range midpoint.
 */
export function detectLPS(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const b = st.breakoutIndex;
  if (b < 0 || t <= b + 2) return null;
  let peak = b;
  for (let i = b + 1; i < t; i++) if (at(s.high, i) > at(s.high, peak)) peak = i;
  let lowIdx = -1;
  for (let i = peak + 1; i <= t; i++) if (lowIdx < 0 || at(s.low, i) < at(s.low, lowIdx)) lowIdx = i;
  if (lowIdx < 0 || lowIdx > b + p.pullbackWindow || t - lowIdx < 2) return null;
  const low = at(s.low, lowIdx);
  if (at(s.high, peak) - low < at(s.atr, lowIdx)) return null;
  const c = at(s.close, t);
  if (c < low * 1.01 || at(s.cp, t) < 0.6) return null;
  const R = st.resistance;
  const mid = (st.support + R) / 2;
  const isBu = low >= R * (1 - 0.02 * scale) && low <= R * (1 + p.buBand * scale);
  if (!isBu && low < mid) return null;
  const pbMed = medianFast(s.volume, peak + 1, lowIdx + 1);
  const refMed = medianFast(s.volume, Math.max(0, peak + 1 - 60), peak + 1);
  const dry = pbMed / refMed;
  if (!(dry <= p.pullbackDryShare)) return null;
  return {
    type: isBu ? "BU" : "LPS",
    index: lowIdx,
    confirmedAt: t,
    price: low,
    vr: at(s.vr, lowIdx),
    confidence: confidence(0.5, [
      [0.3, margin(p.pullbackDryShare - dry, 0, 0.35)],
      [0.2, margin(at(s.cp, t), 0.6, 0.9)],
    ]),
    reasons: [
      isBu
        ? `pullback held at the broken resistance (${fpct(low / R - 1)} from it)`
        : `pullback held above the range midpoint (${fpct(low / R - 1)} from resistance)`,
      `pullback volume ${fpct(dry)} of the prior 60-bar median (≤ ${fpct(p.pullbackDryShare)})`,
      `confirmed ${t - lowIdx} bars later by a close ${fpct(c / low - 1)} off the low`,
    ],
  };
}

/** Bars between two SOSs of one phase D: a new high days after the last one is the same leg. */
export const FOLLOW_GAP = 10;

/**
 * A further SOS in phase D (the markup out of an accumulation prints more than one): a wide,
 * high-volume bar closing near its high above resistance that makes the highest high since the
 * breakout, at least `FOLLOW_GAP` bars after the last SOS.
 */
export function detectFollowSOS(ctx: ScanContext, st: Structure, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const b = st.breakoutIndex;
  const last = st.lastBreakIndex ?? b;
  if (b < 0 || t - last < FOLLOW_GAP || at(s.frozen, t) === 1) return null;
  const c = at(s.close, t);
  const vr = at(s.vr, t);
  const sr = at(s.sr, t);
  const cp = at(s.cp, t);
  if (c < st.resistance * (1 + p.breakMargin * scale) || !(sr >= p.breakSr) || !(vr >= p.breakVr) || !(cp >= p.sosCp))
    return null;
  // The new high breaks a pause: the highest high since the breakout is at least `FOLLOW_GAP` bars old (first set then; a bar that only equals it is part of the pause).
  const high = at(s.high, t);
  let k = b;
  for (let i = b + 1; i < t; i++) if (at(s.high, i) > at(s.high, k)) k = i;
  if (at(s.high, k) >= high || t - k < FOLLOW_GAP) return null;
  st.lastBreakIndex = t;
  return {
    type: "SOS",
    index: t,
    confirmedAt: t,
    price: c,
    vr,
    variant: "markup",
    confidence: confidence(0.4, [
      [0.2, margin(vr, p.breakVr, 3)],
      [0.2, margin(sr, p.breakSr, 2)],
      [0.1, margin(cp, p.sosCp, 1)],
    ]),
    reasons: [
      `a new high ${t - b} bars after the first SOS, closed ${fpct(c / st.resistance - 1)} above resistance`,
      `volume ${fx(vr)}, spread ${fx(sr)}, close position ${cp.toFixed(2)}: demand carried the markup on`,
    ],
  };
}
