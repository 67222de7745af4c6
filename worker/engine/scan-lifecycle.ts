/**
 * How an open range ends or changes shape, one bar at a time: price leaving it without a textbook
 * SOS/SOW (`stepExit`), a pivot widening it in phases A/B (`widen`), closes beyond it failing it
 * (`stepFailure`), and a push above an accumulation's resistance on no demand falling back
 * (`stepPushBack`). Called by the scan's bar step (scan-structure.ts).
 */
import { confidence, fpct, fx, margin } from "./event-util";
import { at } from "./numeric";
import type { Pivot } from "./pivots";
import { closeStructure, push, setPhase } from "./scan-state";
import type { RawEvent, ScanContext, ScanState, Structure } from "./structure-types";

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
export function stepExit(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
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
export function widen(ctx: ScanContext, st: Structure, pivot: Pivot | undefined, t: number): void {
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
export function stepFailure(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
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
export function stepPushBack(ctx: ScanContext, state: ScanState, st: Structure, t: number): boolean {
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
