/**
 * Shared types of the structure scan: raw events (bar indices, converted to dates at the edge of
 * the engine), the active accumulation/distribution structure and the scan state.
 */
import type { EventType, PhaseName } from "../contracts/analysis";
import type { EngineParams } from "./params";
import type { Series } from "./series";

/** An event with bar indices; immutable once emitted (its fields are fixed at `confirmedAt`). */
export interface RawEvent {
  type: EventType;
  index: number;
  confirmedAt: number;
  price: number;
  vr: number;
  confidence: number;
  reasons: string[];
  variant?: string;
}

/** A change of phase at a bar. */
export interface PhaseChange {
  phase: PhaseName;
  index: number;
  at: number;
  reason: string;
}

/** A structural failure (failed Spring/UTAD or a broken range), for health and diagnosis. */
export interface Failure {
  kind: "spring_failed" | "utad_failed" | "range_broken";
  index: number;
}

/** The trading range being built from a climax, or from a reaction in a trend (event-anchored). */
export interface Structure {
  side: "acc" | "dist";
  /** "climax": accumulation / distribution after SC / BC; "trend": re-accumulation / re-distribution. */
  origin: "climax" | "trend";
  /** SC / BC bar, or the trend extreme before the reaction (origin "trend"). */
  climaxIndex: number;
  /** SC low or BC high; for origin "trend" the AR extreme the tests return to. */
  climaxPrice: number;
  climaxVol: number;
  climaxSr: number;
  arIndex: number;
  arPrice: number;
  arConfirmed: boolean;
  support: number;
  resistance: number;
  stCount: number;
  lastStIndex: number;
  /** Last bar that travelled ≥ 35% of the range away from the climax side (separates STs). */
  lastAwayIndex: number;
  /** Spring (acc) or UTAD (dist): -1 when none. */
  trapIndex: number;
  trapPrice: number;
  trapVol: number;
  trapFailed: boolean;
  pendingTrap: { index: number; price: number } | null;
  testDone: boolean;
  /** UT pending confirmation (dist only) and the last UT index. */
  pendingUt: { index: number; price: number } | null;
  lastUtIndex: number;
  /** SOS (acc) or SOW (dist): -1 when none. */
  breakoutIndex: number;
  /** The last SOS (SOW) of phase D, the breakout's own or a later one that carried the move on (-1 before the breakout). */
  lastBreakIndex?: number;
  pullbackDone: boolean;
  /** Consecutive closes beyond the range in the breakout direction. */
  beyondCount: number;
  eIndex: number;
  failCount: number;
  /** The bands when widening began: widening is capped at `WIDEN_MAX` of their height per side. */
  bands0?: { support: number; resistance: number };
  /** Accumulation: a close cleared resistance by `breakMargin` (no SOS yet); one did so on SOS volume; closes back under it since. */
  pushed?: boolean;
  pushHeavy?: boolean;
  backCount?: number;
  /** A new extreme beyond the climax before any ST (phase A), waiting for its reversal. */
  beyondClimax?: { index: number; price: number };
  /** How the structure ended (set when it closes): see `StructureOutcome`. */
  outcome?: StructureOutcome;
  /** Bar at which it closed. */
  endIndex?: number;
}

/**
 * A new structure, every field present from the start (the optional ones undefined) and in one
 * order, so that every structure the scan opens has one hidden class: the scan reads these fields on
 * every bar, and a property read over many object shapes boxes each number it loads.
 */
export function newStructure(
  side: Structure["side"],
  origin: Structure["origin"],
  climaxIndex: number,
  climaxPrice: number,
  climaxVol: number,
  climaxSr: number,
  arIndex: number,
  arPrice: number,
  arConfirmed: boolean,
  support: number,
  resistance: number,
): Structure {
  return {
    side,
    origin,
    climaxIndex,
    climaxPrice,
    climaxVol,
    climaxSr,
    arIndex,
    arPrice,
    arConfirmed,
    support,
    resistance,
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
    lastBreakIndex: undefined,
    pullbackDone: false,
    beyondCount: 0,
    eIndex: -1,
    failCount: 0,
    bands0: undefined,
    pushed: undefined,
    pushHeavy: undefined,
    backCount: undefined,
    beyondClimax: undefined,
    outcome: undefined,
    endIndex: undefined,
  };
}

/**
 * How a structure ended: price left it upward (markup) or downward (markdown) in its own direction,
 * it failed (left the wrong way), a newer opposite climax superseded it, or it went stale.
 */
export type StructureOutcome = "markup" | "markdown" | "failed" | "superseded" | "stale";

/** A climax waiting for its rally (SC) or decline (BC) to confirm it. */
export interface PendingClimax {
  side: "acc" | "dist";
  index: number;
  price: number;
  vol: number;
  sr: number;
  vr: number;
  cp: number;
  /** Bar of its heaviest volume (the one-bar climax's own bar, a cluster's heaviest bar). */
  peak?: number;
  /** Its reasons, formatted only when the climax becomes an event (most candidates never do). */
  reasons: () => string[];
}

/** Everything the scan carries from bar to bar. */
export interface ScanState {
  phase: PhaseName;
  phaseSince: number;
  phases: PhaseChange[];
  structure: Structure | null;
  pending: PendingClimax | null;
  events: RawEvent[];
  failures: Failure[];
  /** Index of the last SC/BC event, for "BC within 20 bars" penalties. */
  lastBcIndex: number;
  /** The most recently opened structure, still open or already closed (targets and stops use it). */
  lastStructure: Structure | null;
  /** Bar at which the last structure closed (-1 if none); a trend range must start after it. */
  closedAt: number;
  /** Structures that have closed, oldest first, with their outcomes. */
  closed: Structure[];
  /** Extreme close since a markup (markdown) phase began outside a structure; NaN when not tracked. */
  trendExtreme: number;
}

/** Read-only inputs of every detector. */
export interface ScanContext {
  s: Series;
  p: EngineParams;
  /** Board price-threshold multiplier. */
  scale: number;
}
