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
import { atrPctAt, confidence, fpct, fx, margin } from "./event-util";
import { at } from "./numeric";
import { createPivotTracker, type Pivot, type PivotTracker } from "./pivots";
import { stepReopen, stepSearch } from "./scan-open";
import { closeStructure, push, setPhase } from "./scan-state";
import type { RawEvent, ScanContext, ScanState, Structure } from "./structure-types";

/** What the scan knows at its last bar. */
export interface ScanResult {
  state: ScanState;
  pivots: Pivot[];
}

/** Bars after the AR with no breakout before a structure is dropped as stale. */
const STALE_BARS = 250;
/** Consecutive decisive closes beyond the range that end it without an SOS/SOW. */
const EXIT_CLOSES = 3;
/** A decisive close clears the band by max(`EXIT_PCT`·board scale, `EXIT_ATR` ATR). */
const EXIT_PCT = 0.02;
const EXIT_ATR = 1;

/**
 * A range also ends when price simply leaves it in its own direction without a textbook SOS/SOW:
 * `EXIT_CLOSES` consecutive closes beyond resistance (support) by max(`EXIT_PCT`, `EXIT_ATR` ATR). A
 * Spring or UTAD reclaims the band within two bars, so three closes beyond it are never one.
 */
function stepExit(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  const { s, scale } = ctx;
  if (st.breakoutIndex >= 0) return false;
  const acc = st.side === "acc";
  let n = 0;
  for (let i = t; i > t - EXIT_CLOSES && i > st.arIndex; i--) {
    const m = Math.max(EXIT_PCT * scale, (EXIT_ATR * at(s.atr, i)) / at(s.close, i));
    if (acc ? at(s.close, i) > st.resistance * (1 + m) : at(s.close, i) < st.support * (1 - m)) n++;
  }
  if (n < EXIT_CLOSES) return false;
  // A range in a trend (no climax) that the trend simply resumes is recorded by its outcome only.
  if (st.origin === "climax")
    push(
      state,
      exitEvent(
        ctx,
        st,
        t,
        acc,
        acc
          ? "demand carried price out of the accumulation range"
          : "supply carried price out of the distribution range",
      ),
    );
  setPhase(
    state,
    acc ? "MARKUP" : "MARKDOWN",
    t,
    t,
    acc ? "price left the range upward without a textbook SOS" : "price left the range downward without a textbook SOW",
  );
  closeStructure(state, t, acc ? "markup" : "markdown");
  return true;
}

/**
 * The sign of strength (weakness) of a range that price left at t without a textbook SOS/SOW bar:
 * dated at the first close beyond the band in the run of closes that ended it (the break), confirmed
 * now by the follow-through. `up`: the range was left upward (SOS), else downward (SOW).
 */
function exitEvent(ctx: ScanContext, st: Structure, t: number, up: boolean, why: string): RawEvent {
  const { s } = ctx;
  const beyond = (i: number) => (up ? at(s.close, i) > st.resistance : at(s.close, i) < st.support);
  let j = t;
  while (j - 1 > st.arIndex && beyond(j - 1)) j--;
  // A limit-locked bar carries no information about effort: the break is dated on the next free bar.
  while (j < t && at(s.frozen, j) === 1) j++;
  const band = up ? st.resistance : st.support;
  const c = at(s.close, j);
  const vr = at(s.vr, j);
  const follow = up ? at(s.close, t) / band - 1 : 1 - at(s.close, t) / band;
  return {
    type: up ? "SOS" : "SOW",
    index: j,
    confirmedAt: t,
    price: c,
    vr,
    variant: "exit",
    confidence: confidence(0.4, [
      [0.2, margin(vr, 1, ctx.p.breakVr + 0.5)],
      [0.2, margin(follow, 0.02 * ctx.scale, 0.08 * ctx.scale)],
    ]),
    reasons: [
      `first close ${fpct(Math.abs(c / band - 1))} ${up ? "above resistance" : "below support"} on ${fx(vr)} volume`,
      `followed through: ${t - j + 1} closes beyond the band, the last ${fpct(follow)} beyond it`,
      why,
    ],
  };
}

/**
 * Most a range widens beyond its phase A bands, as a share of their height, per side. A pivot
 * further out is price leaving the range (an exit or a failure), not a wider range: without the cap
 * a range in a trend follows price for a year and never ends.
 */
const WIDEN_MAX = 0.5;

/** Widens the range when a newly confirmed pivot clears it by > 0.5 ATR in phases A/B, within `WIDEN_MAX`. */
function widen(ctx: ScanContext, st: Structure, pivot: Pivot | undefined, t: number): void {
  if (!pivot || pivot.confirmedAt !== t || pivot.index <= st.arIndex || pivot.index === st.lastUtIndex) return;
  if (st.trapIndex >= 0 || st.breakoutIndex >= 0 || st.pendingTrap || st.pendingUt) return;
  const atr = at(ctx.s.atr, pivot.index);
  st.bands0 ??= { support: st.support, resistance: st.resistance };
  const { support: s0, resistance: r0 } = st.bands0;
  const cap = WIDEN_MAX * (r0 - s0);
  if (pivot.kind === "high" && pivot.price > st.resistance + 0.5 * atr && pivot.price <= r0 + cap)
    st.resistance = pivot.price;
  if (pivot.kind === "low" && pivot.price < st.support - 0.5 * atr && pivot.price >= s0 - cap) st.support = pivot.price;
}

/** Share of the range's height beyond it at which two closes fail it (capped at `failMargin`; see `WIDEN_MAX`). */
const FAIL_HEIGHT = 0.5;

/** Failure transitions; returns true when the structure was closed. */
function stepFailure(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  const { s, p, scale } = ctx;
  const c = at(s.close, t);
  const acc = st.side === "acc";
  if (st.trapIndex >= 0 && !st.trapFailed && t <= st.trapIndex + 10) {
    if (acc ? c < st.trapPrice : c > st.trapPrice) {
      st.trapFailed = true;
      state.failures.push({ kind: acc ? "spring_failed" : "utad_failed", index: t });
    }
  }
  // Failed once price closes half the range's height beyond it (at most `failMargin`): in a narrow
  // range a 5% margin is nearly a full height, and the range outlives the move that broke it. A
  // distribution's line is drawn from its phase A bands (the BC and the AR), not the widened ones:
  // widening follows a rally that clears the BC, and the line would follow it to the next top.
  const b0 = acc ? undefined : st.bands0;
  const sup = b0?.support ?? st.support;
  const res = b0?.resistance ?? st.resistance;
  const height = (res - sup) / (acc ? sup : res);
  const m = Math.min(p.failMargin * scale, FAIL_HEIGHT * height);
  const line = acc
    ? st.trapIndex >= 0
      ? st.trapPrice
      : sup * (1 - m)
    : st.trapIndex >= 0
      ? st.trapPrice
      : res * (1 + m);
  st.failCount = (acc ? c < line : c > line) ? st.failCount + 1 : 0;
  if (st.failCount < 2) return false;
  state.failures.push({ kind: "range_broken", index: t });
  setPhase(
    state,
    acc ? "MARKDOWN" : "MARKUP",
    t,
    t,
    acc ? "accumulation failed: two closes below the range" : "distribution failed: two closes above the range",
  );
  closeStructure(state, t, "failed");
  return true;
}

/**
 * A push above an accumulation's resistance with no demand behind it (closes ≥ `breakMargin` above
 * it, none on SOS volume `breakVr`) that falls back (two closes under it) fails the range: an
 * upthrust, not a markup. A push that carried volume is left to the SOS, exit and failure rules.
 */
function stepPushBack(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
  if (st.side !== "acc" || st.breakoutIndex >= 0) return false;
  const { s, p, scale } = ctx;
  const c = at(s.close, t);
  const R = st.resistance;
  if (c >= R * (1 + p.breakMargin * scale)) {
    st.pushed = true;
    if (at(s.vr, t) >= p.breakVr) st.pushHeavy = true;
  }
  st.backCount = st.pushed && c < R ? (st.backCount ?? 0) + 1 : 0;
  if ((st.backCount ?? 0) < 2 || st.pushHeavy) return false;
  state.failures.push({ kind: "range_broken", index: t });
  setPhase(state, "MARKDOWN", t, t, "accumulation failed: a push above resistance on no demand fell back");
  closeStructure(state, t, "failed");
  return true;
}

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
