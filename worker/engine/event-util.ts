/**
 * Helpers the detectors share: price-free reason text, confidence from threshold margins,
 * and rolling extremes. Reasons never quote prices, so they are invariant to price × k.
 */
import { at, clamp } from "./numeric";
import type { Series } from "./series";

/** Formats a ratio like "2.31×". */
export function fx(x: number): string {
  return `${x.toFixed(2)}×`;
}

/** Formats a fraction as a percentage like "3.2%". */
export function fpct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** How far `value` clears `threshold` towards `strong`, as 0–1. */
export function margin(value: number, threshold: number, strong: number): number {
  if (strong === threshold) return value >= threshold ? 1 : 0;
  return clamp((value - threshold) / (strong - threshold), 0, 1);
}

/** Confidence: a base plus weighted margins, clamped to [0, 1] and rounded to 3 decimals. */
export function confidence(base: number, parts: readonly (readonly [number, number])[]): number {
  let c = base;
  for (const [w, m] of parts) c += w * m;
  return Math.round(clamp(c, 0, 1) * 1000) / 1000;
}

/** Lowest low over bars [from, to]. */
export function minLow(s: Series, from: number, to: number): number {
  let m = Number.POSITIVE_INFINITY;
  for (let i = Math.max(0, from); i <= to; i++) m = Math.min(m, at(s.low, i));
  return m;
}

/** Highest high over bars [from, to]. */
export function maxHigh(s: Series, from: number, to: number): number {
  let m = Number.NEGATIVE_INFINITY;
  for (let i = Math.max(0, from); i <= to; i++) m = Math.max(m, at(s.high, i));
  return m;
}

/** ATR as a fraction of the close at bar i (2% when ATR is not yet defined). */
export function atrPctAt(s: Series, i: number): number {
  const v = at(s.atr, i) / at(s.close, i);
  return Number.isFinite(v) ? v : 0.02;
}

/** Bar i is a swing low over `before` bars before and `after` bars after (strictly lower after). */
export function isSwingLow(s: Series, i: number, before: number, after: number): boolean {
  const l = at(s.low, i);
  for (let j = 1; j <= before; j++) if (i - j >= 0 && at(s.low, i - j) < l) return false;
  for (let j = 1; j <= after; j++) if (!(at(s.low, i + j) > l)) return false;
  return true;
}

/** Bar i is a swing high over `before` bars before and `after` bars after (strictly higher after). */
export function isSwingHigh(s: Series, i: number, before: number, after: number): boolean {
  const h = at(s.high, i);
  for (let j = 1; j <= before; j++) if (i - j >= 0 && at(s.high, i - j) > h) return false;
  for (let j = 1; j <= after; j++) if (!(at(s.high, i + j) < h)) return false;
  return true;
}
