/**
 * Swing pivots (DOMAIN.md §1.13 C): a k=3 fractal confirmed k bars later, filtered for
 * significance (≥ 1 ATR from the previous opposite pivot) and forced to alternate.
 * Tracked incrementally so the state at bar t uses bars ≤ t only.
 */
import { at } from "./numeric";
import type { Series } from "./series";

/** A confirmed swing pivot. */
export interface Pivot {
  kind: "high" | "low";
  /** Bar index of the extreme. */
  index: number;
  price: number;
  /** First bar index at which the pivot is known (index + k, or later if it replaced another). */
  confirmedAt: number;
}

/** Incremental pivot state; call `update(t)` for t = 0, 1, 2, … in order. */
export interface PivotTracker {
  /** Accepted pivots in order, alternating high/low. */
  readonly pivots: Pivot[];
  /** Feeds bar t (the pivot at t−k, if any, becomes known). */
  update(t: number): void;
}

/** Raw fractal test at i: H_i > the k highs before and ≥ the k highs after (lows mirrored). */
function fractalAt(s: Series, i: number, k: number): "high" | "low" | null {
  if (i - k < 0 || i + k >= s.n) return null;
  const h = at(s.high, i);
  const l = at(s.low, i);
  let isHigh = true;
  let isLow = true;
  // Once neither can hold, the rest of the window changes nothing.
  for (let j = 1; j <= k && (isHigh || isLow); j++) {
    if (isHigh && (!(h > at(s.high, i - j)) || !(h >= at(s.high, i + j)))) isHigh = false;
    if (isLow && (!(l < at(s.low, i - j)) || !(l <= at(s.low, i + j)))) isLow = false;
  }
  if (isHigh && !isLow) return "high";
  if (isLow && !isHigh) return "low";
  return null;
}

/** Creates a tracker over `s` with fractal half-width `k` and ATR significance `minAtr`. */
export function createPivotTracker(s: Series, k = 3, minAtr = 1.0): PivotTracker {
  const pivots: Pivot[] = [];
  const accept = (p: Pivot): void => {
    const last = pivots[pivots.length - 1];
    if (!last) {
      pivots.push(p);
      return;
    }
    if (last.kind === p.kind) {
      const moreExtreme = p.kind === "high" ? p.price > last.price : p.price < last.price;
      if (moreExtreme) pivots[pivots.length - 1] = p;
      return;
    }
    const atr = at(s.atr, p.index);
    const dist = Math.abs(p.price - last.price);
    if (!Number.isFinite(atr) || dist >= minAtr * atr) pivots.push(p);
  };
  return {
    pivots,
    update(t: number) {
      const i = t - k;
      const kind = fractalAt(s, i, k);
      if (kind === null) return;
      accept({ kind, index: i, price: kind === "high" ? at(s.high, i) : at(s.low, i), confirmedAt: t });
    },
  };
}

/** All pivots of the series, as known at its last bar. */
export function detectPivots(s: Series, k = 3, minAtr = 1.0): Pivot[] {
  const tracker = createPivotTracker(s, k, minAtr);
  for (let t = 0; t < s.n; t++) tracker.update(t);
  return tracker.pivots;
}
