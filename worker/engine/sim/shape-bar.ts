/**
 * Turns an event bar's description (low, range, close position, volume ratio) into OHLC, opening
 * near the previous close so gaps stay realistic.
 */
import type { ShapedBar } from "./bar-builder";
import { type Rng, uniform } from "./rng";

/** Description of an event bar. */
export interface BarSpec {
  prevClose: number;
  low: number;
  range: number;
  /** Close position (C−L)/(H−L). */
  cp: number;
  vr: number;
  /** Open near the low (a reversal bar) instead of near the previous close. */
  openAtLow?: boolean;
}

/** OHLC + vr for `spec`. */
export function shapeBar(spec: BarSpec, rng: Rng): ShapedBar {
  const high = spec.low + spec.range;
  const close = spec.low + spec.cp * spec.range;
  const wanted = spec.openAtLow
    ? spec.low + uniform(rng, 0.02, 0.1) * spec.range
    : spec.prevClose * (1 + uniform(rng, -0.003, 0.003));
  const open = Math.min(high, Math.max(spec.low, wanted));
  return { open, high, low: spec.low, close, vr: spec.vr };
}
