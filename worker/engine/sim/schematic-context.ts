/**
 * Shared state and small bar helpers of the schematic generators: the builder, the answer key,
 * A-share limit moves (locked or not) and shaped approaches that create no swing points.
 */
import type { Board, EventType, Market } from "../../contracts/analysis";
import type { BarBuilder } from "./bar-builder";
import { type Rng, uniform } from "./rng";
import { shapeBar } from "./shape-bar";

/** A labelled event: its type and the bar index it refers to. */
export interface SchematicLabel {
  type: EventType;
  index: number;
  variant?: string;
}

/** What every phase builder shares. */
export interface Ctx {
  b: BarBuilder;
  rng: Rng;
  /** Board price-threshold multiplier (1 for US). */
  scale: number;
  board: Board;
  market: Market;
  labels: SchematicLabel[];
  frozen: number[];
  /** Realistic noise: limit moves in trends (CN) and spikes/gaps on quiet bars. */
  realistic: boolean;
}

/** Daily price limit per A-share board. */
export const LIMIT: Record<Board, number> = { main: 0.1, chinext: 0.2, star: 0.2, bse: 0.3 };

/** Adds a label to the answer key. */
export function label(c: Ctx, type: EventType, index: number, variant?: string): void {
  c.labels.push(variant ? { type, index, variant } : { type, index });
}

/** Low of bar i (NaN when absent). */
export function lowOf(c: Ctx, i: number): number {
  return c.b.bars[i]?.low ?? Number.NaN;
}

/** High of bar i (NaN when absent). */
export function highOf(c: Ctx, i: number): number {
  return c.b.bars[i]?.high ?? Number.NaN;
}

/** Appends a limit-locked bar (CN): open ≈ high ≈ low ≈ close at the daily limit. */
export function frozenBar(c: Ctx, up: boolean, vr: number): number {
  const close = c.b.close() * (1 + (up ? 1 : -1) * LIMIT[c.board]);
  const i = c.b.shaped({ open: close, high: up ? close : close * 1.004, low: up ? close * 0.996 : close, close, vr });
  c.frozen.push(i);
  return i;
}

/** Appends a traded (not locked) limit move (CN): a wide bar closing at the limit on heavy volume. */
export function limitMove(c: Ctx, up: boolean): number {
  const { b, rng } = c;
  const prev = b.close();
  const close = prev * (1 + (up ? 1 : -1) * LIMIT[c.board] * 0.999);
  const open = prev * (1 + (up ? 1 : -1) * uniform(rng, 0, 0.03));
  const far = prev * (1 + (up ? -1 : 1) * uniform(rng, 0, 0.01));
  return b.shaped({
    open,
    high: up ? close : Math.max(open, far),
    low: up ? Math.min(open, far) : close,
    close,
    vr: uniform(rng, 1.6, 3.0),
  });
}

/** Index of the highest high in [from, to]. */
export function argMaxHigh(c: Ctx, from: number, to: number): number {
  let k = from;
  for (let i = from; i <= to; i++) if (highOf(c, i) > highOf(c, k)) k = i;
  return k;
}

/** Index of the lowest low in [from, to]. */
export function argMinLow(c: Ctx, from: number, to: number): number {
  let k = from;
  for (let i = from; i <= to; i++) if (lowOf(c, i) < lowOf(c, k)) k = i;
  return k;
}

/** Shaped bars whose lows (side "down") or highs (side "up") move strictly towards `to`, so none is a swing point. */
export function approach(c: Ctx, to: number, k: number, side: "down" | "up"): void {
  const { b, rng } = c;
  const last = c.b.bars[c.b.bars.length - 1];
  if (!last) return;
  const from = side === "down" ? last.low : last.high;
  for (let j = 1; j <= k; j++) {
    const lvl = from + ((to - from) * j) / k;
    const rg = b.meanSpread() * uniform(rng, 0.8, 1.05);
    const low = side === "down" ? lvl : lvl - rg;
    b.shaped(
      shapeBar({ prevClose: b.close(), low, range: rg, cp: uniform(rng, 0.3, 0.6), vr: uniform(rng, 0.75, 1.1) }, rng),
    );
  }
}

/**
 * A trend leg of `n` quiet bars towards `to`. With realistic noise a CN leg may carry one limit move
 * a third of the way in; the leg then goes on at its own pace from the new level (the limit move is
 * an extra jolt, so the trend into the range keeps its designed strength).
 */
export function trendLeg(c: Ctx, to: number, n: number, up: boolean): void {
  const { b, rng } = c;
  if (!(c.realistic && c.market === "CN" && n >= 12 && rng.next() < 0.4)) {
    b.path(to, n);
    return;
  }
  const k = Math.floor(n / 3);
  const step = (to / b.close()) ** (1 / n);
  b.path(b.close() * step ** k, k);
  const before = b.close();
  limitMove(c, up);
  b.path(to * (b.close() / before), n - k - 1);
}
