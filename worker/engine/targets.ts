/**
 * Price targets for a completed or breaking-out range: a P&F horizontal count across the range
 * (box = 1% of the range midpoint, 3-box reversal) and the measured move (range height projected
 * from the breakout side).
 */
import type { Targets } from "../contracts/analysis";
import { finiteOrNull } from "./numeric";
import { horizontalCountTarget, pnfColumns } from "./point-figure";
import type { Series } from "./series";

/** Range facts the targets need. */
export interface TargetInput {
  side: "acc" | "dist";
  support: number;
  resistance: number;
  /** First bar after the AR, and the bar of the JAC/LPS (or the last bar). */
  countFrom: number;
  countTo: number;
  /** LPS (acc) or LPSY (dist) price for the aggressive objective, if any. */
  lastPoint: number | null;
  /** True once the range has been broken (SOS/SOW). */
  brokeOut: boolean;
}

/** P&F and measured-move targets. */
export function computeTargets(s: Series, x: TargetInput | null): Targets {
  if (!x || !(x.resistance > x.support)) return { pointAndFigure: null, measuredMove: null };
  const box = 0.01 * ((x.support + x.resistance) / 2);
  const columns = pnfColumns(s.close, x.countFrom, x.countTo, box, 3);
  const up = x.side === "acc";
  const conservative = horizontalCountTarget({
    columns,
    box,
    reversal: 3,
    base: up ? x.support : x.resistance,
    direction: up ? "up" : "down",
  });
  const aggressive =
    x.lastPoint === null
      ? null
      : horizontalCountTarget({ columns, box, reversal: 3, base: x.lastPoint, direction: up ? "up" : "down" });
  const height = x.resistance - x.support;
  const measured = x.brokeOut ? (up ? x.resistance + height : x.support - height) : Number.NaN;
  return {
    pointAndFigure:
      columns > 0
        ? {
            conservative: finiteOrNull(Math.max(conservative, 0)) ?? 0,
            aggressive: aggressive === null ? null : finiteOrNull(Math.max(aggressive, 0)),
            columns,
            box: finiteOrNull(box) ?? 0,
          }
        : null,
    measuredMove: finiteOrNull(measured),
  };
}
