/**
 * The structure scan: walks the bars once, left to right, and runs the phase state machine
 * (DOMAIN.md §1.13 F) together with the event detectors. Work done at bar t reads bars ≤ t only,
 * so events and phases of a truncated series equal the full run's up to that bar (point in time).
 * Opening a structure (climax search, supersession, trend ranges): scan-open.ts.
 */
import { trackAr } from "./detect-climax";
import {
  detectAccST,
  detectFollowSOS,
  detectLPS,
  detectSOS,
  detectSpring,
  detectSpringZoneST,
  detectTest,
} from "./detect-accumulation";
import { detectDistST, detectFollowSOW, detectLPSY, detectSOW, detectUpthrust } from "./detect-distribution";
import { detectEVR } from "./detect-evr";
import { atrPctAt, fpct } from "./event-util";
import { at } from "./numeric";
import { createPivotTracker, type Pivot, type PivotTracker } from "./pivots";
import { stepExit, stepFailure, stepPushBack, widen } from "./scan-lifecycle";
import { stepReopen, stepSearch } from "./scan-open";
import { closeStructure, push, setPhase } from "./scan-state";
import type { ScanContext, ScanState, Structure } from "./structure-types";

/** What the scan knows at its last bar. */
export interface ScanResult {
  state: ScanState;
  pivots: Pivot[];
}

/** Bars after the AR with no breakout before a structure is dropped as stale. */
const STALE_BARS = 250;
function stepAccumulation(ctx: ScanContext, state: ScanState, st: Structure, t: number): void {
  const { s, p } = ctx;
  const ph = state.phase;
  const inAB = ph === "ACC_A" || ph === "ACC_B";
  if (inAB && st.trapIndex < 0) {
    const ev = detectAccST(ctx, st, t);
    if (push(state, ev)) {
      st.stCount++;
      st.lastStIndex = ev.index;
      if (state.phase === "ACC_A") setPhase(state, "ACC_B", ev.index, t, "secondary test");
    }
  }
  if ((state.phase === "ACC_A" || state.phase === "ACC_B") && st.trapIndex < 0 && st.breakoutIndex < 0) {
    const ev = detectSpring(ctx, st, t);
    if (push(state, ev)) setPhase(state, "ACC_C", ev.index, t, `Spring ${ev.variant ?? ""}`.trim());
  }
  if (st.trapIndex >= 0 && !st.testDone && !st.trapFailed && (state.phase === "ACC_C" || state.phase === "ACC_D")) {
    if (push(state, detectTest(ctx, st, t))) st.testDone = true;
  }
  if (state.phase === "ACC_C" && !st.trapFailed && st.breakoutIndex < 0) {
    const ev = detectSpringZoneST(ctx, st, t);
    if (push(state, ev)) st.lastStIndex = ev.index;
  }
  if ((state.phase === "ACC_B" || state.phase === "ACC_C") && st.breakoutIndex < 0) {
    const ev = detectSOS(ctx, st, t, st.trapIndex >= 0);
    if (push(state, ev)) {
      st.breakoutIndex = t;
      setPhase(state, "ACC_D", t, t, st.trapIndex >= 0 ? "SOS after Spring" : "SOS (noSpring)");
    }
  }
  if (state.phase === "ACC_D" && !st.pullbackDone && t <= st.breakoutIndex + p.pullbackWindow + 6) {
    if (push(state, detectLPS(ctx, st, t))) st.pullbackDone = true;
  }
  if ((state.phase === "ACC_D" || state.phase === "ACC_E") && t > st.breakoutIndex)
    push(state, detectFollowSOS(ctx, st, t));
  st.beyondCount = at(s.close, t) > st.resistance ? st.beyondCount + 1 : 0;
  if (state.phase === "ACC_D" && st.pullbackDone && st.beyondCount >= p.phaseEBars) {
    st.eIndex = t;
    setPhase(state, "ACC_E", t, t, `${p.phaseEBars} closes above resistance after a confirmed LPS/BU`);
  }
  const toMarkup =
    (state.phase === "ACC_E" && st.beyondCount >= p.markupBars && t > st.eIndex) ||
    (state.phase === "ACC_D" && st.beyondCount >= p.phaseEBars + p.markupBars);
  if (toMarkup) {
    setPhase(state, "MARKUP", t, t, `${st.beyondCount} closes above resistance`);
    closeStructure(state, t, "markup");
    return;
  }
  if (state.phase === "ACC_A" || state.phase === "ACC_B" || state.phase === "ACC_C") {
    push(state, detectEVR(ctx, st.support, st.resistance, t));
  }
}

function stepDistribution(ctx: ScanContext, state: ScanState, st: Structure, t: number): void {
  const { s, p } = ctx;
  const ph = state.phase;
  const inAB = ph === "DIST_A" || ph === "DIST_B";
  if (inAB && st.trapIndex < 0) {
    const ev = detectDistST(ctx, st, t);
    if (push(state, ev)) {
      st.stCount++;
      st.lastStIndex = ev.index;
      if (state.phase === "DIST_A") setPhase(state, "DIST_B", ev.index, t, "secondary test");
    }
  }
  if ((state.phase === "DIST_A" || state.phase === "DIST_B") && st.trapIndex < 0 && st.breakoutIndex < 0) {
    const ev = detectUpthrust(ctx, st, t);
    if (push(state, ev) && ev.type === "UTAD") {
      st.trapIndex = ev.index;
      st.trapPrice = ev.price;
      st.trapVol = at(s.volume, ev.index);
      setPhase(state, "DIST_C", ev.index, t, "UTAD");
    }
  }
  if ((state.phase === "DIST_B" || state.phase === "DIST_C") && st.breakoutIndex < 0) {
    const ev = detectSOW(ctx, st, t);
    if (push(state, ev)) {
      st.breakoutIndex = t;
      setPhase(state, "DIST_D", t, t, st.trapIndex >= 0 ? "SOW after UTAD" : "SOW (no UTAD)");
    }
  }
  if (state.phase === "DIST_D" && !st.pullbackDone && t <= st.breakoutIndex + p.pullbackWindow + 6) {
    if (push(state, detectLPSY(ctx, st, t))) st.pullbackDone = true;
  }
  if ((state.phase === "DIST_D" || state.phase === "DIST_E") && t > st.breakoutIndex)
    push(state, detectFollowSOW(ctx, st, t));
  st.beyondCount = at(s.close, t) < st.support ? st.beyondCount + 1 : 0;
  if (state.phase === "DIST_D" && st.pullbackDone && st.beyondCount >= p.phaseEBars) {
    st.eIndex = t;
    setPhase(state, "DIST_E", t, t, `${p.phaseEBars} closes below support after a confirmed LPSY`);
  }
  const toMarkdown =
    (state.phase === "DIST_E" && st.beyondCount >= p.markupBars && t > st.eIndex) ||
    (state.phase === "DIST_D" && st.beyondCount >= p.phaseEBars + p.markupBars);
  if (toMarkdown) {
    setPhase(state, "MARKDOWN", t, t, `${st.beyondCount} closes below support`);
    closeStructure(state, t, "markdown");
    return;
  }
  if (state.phase === "DIST_A" || state.phase === "DIST_B" || state.phase === "DIST_C") {
    push(state, detectEVR(ctx, st.support, st.resistance, t));
  }
}

/**
 * Outside a structure, a markup (markdown) phase lasts while its trend does: the first close on the
 * wrong side of the MA50 ends it (phase NONE), so a top reached by a markup is not read as one
 * days into the fall.
 */
function stepTrendEnd(ctx: ScanContext, state: ScanState, t: number): void {
  const { s, p, scale } = ctx;
  const up = state.phase === "MARKUP";
  if (!up && state.phase !== "MARKDOWN") return;
  const c = at(s.close, t);
  const ma = at(s.sma50, t);
  if (Number.isFinite(ma) && (up ? c < ma : c > ma)) {
    setPhase(
      state,
      "NONE",
      t,
      t,
      up ? "the markup ended: a close under the MA50" : "the markdown ended: a close over the MA50",
    );
    return;
  }
  // A reaction of `trendEndDepth` and `trendEndAtr` ATR from the extreme close also ends it: the trend paused or turned.
  let ext = state.trendExtreme;
  if (Number.isNaN(ext)) {
    ext = c;
    for (let i = Math.max(0, state.phaseSince); i < t; i++)
      ext = up ? Math.max(ext, at(s.close, i)) : Math.min(ext, at(s.close, i));
  }
  ext = up ? Math.max(ext, c) : Math.min(ext, c);
  state.trendExtreme = ext;
  const depth = up ? 1 - c / ext : c / ext - 1;
  if (depth >= Math.max(p.trendEndDepth * scale, p.trendEndAtr * atrPctAt(s, t)))
    setPhase(
      state,
      "NONE",
      t,
      t,
      `the ${up ? "markup" : "markdown"} ended: a ${fpct(depth)} ${up ? "reaction" : "rally"} from its extreme close`,
    );
}

/** Marks bar j (after the AR) when it travelled ≥ 35% of the range away from the climax side (separates STs). */
function markAway(ctx: ScanContext, st: Structure, j: number): void {
  if (j <= st.arIndex) return;
  const { s } = ctx;
  const span = st.resistance - st.support;
  if (st.side === "acc" ? at(s.high, j) >= st.support + 0.35 * span : at(s.low, j) <= st.resistance - 0.35 * span)
    st.lastAwayIndex = j;
}

/**
 * The AR is known only when the reaction is over, up to `arTrackBars` bars after the climax or later
 * by a reversal: a test of the climax between the AR and that bar becomes knowable with it. Replays
 * the ST detector over those bars (each read as it was, with its two bars after it), confirmed at t.
 */
function catchUpTests(ctx: ScanContext, state: ScanState, st: Structure, t: number): void {
  const acc = st.side === "acc";
  for (let u = st.arIndex + 3; u <= t; u++) {
    markAway(ctx, st, u - 3);
    const ev = acc ? detectAccST(ctx, st, u) : detectDistST(ctx, st, u);
    if (!ev) continue;
    ev.confirmedAt = t;
    push(state, ev);
    st.stCount++;
    st.lastStIndex = ev.index;
    setPhase(state, acc ? "ACC_B" : "DIST_B", ev.index, t, "secondary test");
  }
}

/** One bar of the scan. */
function step(ctx: ScanContext, state: ScanState, tracker: PivotTracker, t: number): void {
  const st = state.structure;
  if (!st) {
    stepTrendEnd(ctx, state, t);
    stepSearch(ctx, state, t);
    return;
  }
  const { s } = ctx;
  const acc = st.side === "acc";
  if (!st.arConfirmed) {
    if (acc ? at(s.low, t) < st.climaxPrice : at(s.high, t) > st.climaxPrice) {
      state.failures.push({ kind: "range_broken", index: t });
      setPhase(state, acc ? "MARKDOWN" : "MARKUP", t, t, "the climax extreme did not hold");
      closeStructure(state, t, "failed");
      return;
    }
    if (push(state, trackAr(ctx, st, t))) catchUpTests(ctx, state, st, t);
    return;
  }
  if (
    stepReopen(ctx, state, st, t) ||
    stepFailure(ctx, state, st, t) ||
    stepPushBack(ctx, state, st, t) ||
    stepExit(ctx, state, st, t)
  )
    return;
  widen(ctx, st, tracker.pivots[tracker.pivots.length - 1], t);
  // Mark bars that travelled away from the climax side; judged one bar behind the ST lag.
  markAway(ctx, st, t - 3);
  if (acc) stepAccumulation(ctx, state, st, t);
  else stepDistribution(ctx, state, st, t);
  const open = state.structure;
  if (open && open.breakoutIndex < 0 && t - open.arIndex > STALE_BARS) {
    closeStructure(state, t, "stale");
    setPhase(state, "NONE", t, t, "range went stale without a breakout");
  }
}

/** Runs the scan over all bars of `ctx.s`. */
export function scanStructure(ctx: ScanContext): ScanResult {
  const state: ScanState = {
    phase: "NONE",
    phaseSince: -1,
    phases: [],
    structure: null,
    pending: null,
    events: [],
    failures: [],
    lastBcIndex: -1,
    lastStructure: null,
    closedAt: -1,
    closed: [],
    trendExtreme: Number.NaN,
  };
  const tracker = createPivotTracker(ctx.s, ctx.p.pivotK, ctx.p.pivotAtr);
  for (let t = 0; t < ctx.s.n; t++) {
    tracker.update(t);
    step(ctx, state, tracker, t);
  }
  return { state, pivots: tracker.pivots };
}
