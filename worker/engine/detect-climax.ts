/**
 * Phase A of a structure: selling / buying climax (SC, BC; CN two-bar variant), its preliminary
 * PS / PSY, and the automatic reaction (AR). A climax is confirmed by the first close that has
 * rallied (fallen) the AR minimum off its extreme; AR by a 3-bar hold or a 1-ATR pullback.
 */
import { clusterClimax } from "./detect-climax-cluster";
import { at } from "./numeric";
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
