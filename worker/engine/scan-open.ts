/**
 * Structure opening in the scan: a climax pending its confirmation, the structure it opens (with
 * PS/PSY and the climax event), the search while no structure is open, an opposite climax that
 * supersedes an open structure, a distribution whose BC is exceeded in phase A (re-anchored), and a
 * re-accumulation / re-distribution range in a trend.
 */
import { arMinMove, climaxCandidate, climaxEvent, openStructure, preliminaryEvent } from "./detect-climax";
import { trendRangeAt } from "./detect-trend-range";
import { fpct } from "./event-util";
import { at } from "./numeric";
import { closeStructure, push, setPhase } from "./scan-state";
import type { PendingClimax, ScanContext, ScanState, Structure } from "./structure-types";

/**
 * Which climax candidates a search takes: asked with the side and price alone first (inside the
 * clustered-climax test, before its volume statistics), then with the whole candidate `c`.
 */
type Accept = (side: PendingClimax["side"], price: number, c?: PendingClimax) => boolean;

/** The search with no structure open takes every candidate. */
const ANY: Accept = () => true;

/**
 * Updates the pending climax with bar t's candidate (when `accept` takes it) and returns it once a
 * close has moved the AR minimum off its extreme, else null.
 */
function trackPending(ctx: ScanContext, state: ScanState, t: number, accept: Accept): PendingClimax | null {
  const { s } = ctx;
  const raw = climaxCandidate(ctx, t, accept);
  const cand = raw && accept(raw.side, raw.price, raw) ? raw : null;
  const pend = state.pending;
  if (pend) {
    const beyond = pend.side === "acc" ? at(s.low, t) < pend.price : at(s.high, t) > pend.price;
    if (cand && cand.side === pend.side && beyond) state.pending = cand;
    else if (beyond || t > pend.index + ctx.p.arWindow) state.pending = null;
  } else if (cand) state.pending = cand;
  const c = state.pending;
  if (!c || t <= c.index) return null;
  const close = at(s.close, t);
  const move = c.side === "acc" ? close / c.price - 1 : 1 - close / c.price;
  return move < arMinMove(ctx, c.index) ? null : c;
}

/** Opens the structure of a confirmed climax at t. */
function openFromClimax(ctx: ScanContext, state: ScanState, c: PendingClimax, t: number, why = ""): void {
  push(state, preliminaryEvent(ctx, c, t));
  const ev = climaxEvent(ctx, c, t);
  push(state, ev);
  if (c.side === "dist") state.lastBcIndex = c.index;
  state.structure = openStructure(ctx, c, t);
  state.lastStructure = state.structure;
  state.pending = null;
  setPhase(state, c.side === "acc" ? "ACC_A" : "DIST_A", c.index, t, `${ev.type} confirmed${why}`);
}

/** Looks for a climax while no structure is open; opens one when a climax confirms. */
export function stepSearch(ctx: ScanContext, state: ScanState, t: number): void {
  const c = trackPending(ctx, state, t, ANY);
  if (!state.pending) {
    openTrendRange(ctx, state, t);
    return;
  }
  if (c) openFromClimax(ctx, state, c, t);
}

/** The structure `supersedes` last made its test for, and that test (one per structure, not per bar). */
let supersededSt: Structure | null = null;
let supersedesSt: Accept = ANY;

/** Which opposite climaxes supersede the open structure `st` (read live from it, as the scan moves it on). */
function supersedes(st: Structure): Accept {
  if (st === supersededSt) return supersedesSt;
  supersededSt = st;
  supersedesSt = (side, price, x) => {
    // A full move away: one range height beyond the far side (a markup or markdown happened). The
    // side / price pre-filter has no peak yet, so it lets a candidate past the band through.
    const turned = x === undefined || (side === "acc" ? x.cp >= 0.5 : x.cp <= 0.5);
    const past = st.breakoutIndex >= 0 && turned && (x?.peak === undefined || x.peak > st.breakoutIndex);
    const h = past ? 0 : st.resistance - st.support;
    return side !== st.side && (side === "acc" ? price < st.support - h : price > st.resistance + h);
  };
  return supersedesSt;
}

/**
 * While a structure is open, a climax on the other side that lies a full range height beyond it (an
 * SC under a distribution's support, a BC over an accumulation's resistance) supersedes it once confirmed:
 * the old range is closed with the outcome price gave it (markdown / markup) and the new one opens.
 * After the breakout (SOS / SOW) the climax only has to lie beyond the range, when its heaviest bar
 * came after the breakout bar: fresh effort past the break, not the breakout's own volume.
 */
function stepSupersede(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  // An SOS's own pullback (LPS / BU) is part of the structure, never a new BC's reaction. (A markdown
  // can end in a selling climax at any time: panic does not wait for the LPSY.)
  if (st.side === "acc" && st.breakoutIndex >= 0 && t <= st.breakoutIndex + ctx.p.pullbackWindow + 6) return false;
  const c = trackPending(ctx, state, t, supersedes(st));
  if (!c) return false;
  closeStructure(state, t, st.side === "acc" ? "markup" : "markdown");
  openFromClimax(
    ctx,
    state,
    c,
    t,
    st.side === "acc" ? " above the accumulation range" : " below the distribution range",
  );
  return true;
}

/** Opens a re-accumulation / re-distribution structure when one becomes knowable at t. */
function openTrendRange(ctx: ScanContext, state: ScanState, t: number): void {
  const found = trendRangeAt(ctx, t);
  // A range in a trend starts after the previous structure ended, never inside its breakout.
  if (!found || found.structure.climaxIndex <= state.closedAt) return;
  if (found.climax) {
    push(state, found.climax);
    if (found.climax.type === "BC") state.lastBcIndex = found.climax.index;
  }
  push(state, found.ar);
  state.structure = found.structure;
  state.lastStructure = found.structure;
  const acc = found.structure.side === "acc";
  if (found.climax) {
    setPhase(
      state,
      acc ? "ACC_A" : "DIST_A",
      found.structure.climaxIndex,
      t,
      acc
        ? "demand on the rally: the low was a selling climax"
        : "supply on the reaction: the high was a buying climax",
    );
    return;
  }
  setPhase(
    state,
    acc ? "ACC_A" : "DIST_A",
    found.structure.climaxIndex,
    t,
    acc ? "re-accumulation: a reaction stopped the uptrend" : "re-distribution: a rally stopped the downtrend",
  );
}

/**
 * A distribution still in phase A (no ST, trap or breakout) whose high exceeds the BC and then falls
 * back by the AR minimum was one climactic episode, however long phase A has lasted (the BC was never
 * tested; S&P 2018: BC 01-26, no ST until the 09-21 high 2.4% over it): the BC
 * moves to the new high (the old structure is superseded, its BC read as the first wave) and the AR
 * is tracked afresh. Tops are processes (SSE 2015: a 05-28 BC on 1.5× volume, the top 5178 on 06-12);
 * the mirror at bottoms is left to the failure and Spring rules — read symmetrically it cost SC/BC
 * precision on the real suite (.870 → .833) and gained no label.
 */
function stepReanchor(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  const { s, p, scale } = ctx;
  if (st.side !== "dist" || st.origin !== "climax" || st.stCount > 0 || st.trapIndex >= 0 || st.breakoutIndex >= 0)
    return false;
  const high = at(s.high, t);
  const ref = st.beyondClimax?.price ?? st.climaxPrice * (1 + p.springMinPen * scale);
  if (high > ref && at(s.frozen, t) !== 1) st.beyondClimax = { index: t, price: high };
  const b = st.beyondClimax;
  if (!b || t <= b.index || 1 - at(s.close, t) / b.price < arMinMove(ctx, b.index)) return false;
  const k = b.index;
  const first = st.climaxPrice;
  const c: PendingClimax = {
    side: "dist",
    index: k,
    price: b.price,
    vol: Math.max(st.climaxVol, at(s.volume, k)),
    sr: Math.max(st.climaxSr, at(s.sr, k)),
    vr: at(s.vr, k),
    cp: at(s.cp, k),
    peak: k,
    reasons: reanchorReasons(b.price / first - 1, k - st.climaxIndex, first),
  };
  closeStructure(state, t, "superseded");
  state.phase = "NONE"; // the new structure's phase A starts at the new BC (recorded by openFromClimax)
  openFromClimax(ctx, state, c, t, " over the earlier BC");
  return true;
}

/**
 * The reasons of a re-anchored BC, built when asked for: a module-level factory, so that stepReanchor
 * captures nothing (and allocates no closure context) on the bars where it re-anchors nothing.
 */
function reanchorReasons(over: number, bars: number, first: number): () => string[] {
  return () => [
    `a new high ${fpct(over)} over the BC ${bars} bars after it, before any secondary test: one climactic episode`,
    `the earlier BC (${first.toFixed(2)}) was its first wave`,
  ];
}

/** While a structure is open: an opposite climax supersedes it, or a distribution's BC is re-anchored. */
export function stepReopen(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  return stepSupersede(ctx, state, st, t) || stepReanchor(ctx, state, st, t);
}
