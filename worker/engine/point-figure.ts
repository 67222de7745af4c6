/**
 * Point-and-figure on closes and the horizontal-count price objective (DOMAIN.md §1.7, §1.13 H):
 * extension = columns × box × reversal, added to the base low (bullish) or subtracted from the
 * top (bearish). Checked on the PDSnet (3027) and Dorsey Wright (18) worked examples.
 */
import { at, type NumSeries } from "./numeric";

/** Horizontal-count objective. */
export function horizontalCountTarget(o: {
  columns: number;
  box: number;
  reversal: number;
  /** Low of the congestion (bullish) or its high (bearish). */
  base: number;
  direction: "up" | "down";
}): number {
  const ext = o.columns * o.box * o.reversal;
  return o.direction === "up" ? o.base + ext : o.base - ext;
}

/**
 * Number of P&F columns drawn on `closes[from..to]` with a fixed `box` and `reversal` boxes.
 * A new column starts each time price reverses by at least `reversal` boxes.
 */
export function pnfColumns(closes: NumSeries, from: number, to: number, box: number, reversal = 3): number {
  if (!(box > 0) || to <= from) return 0;
  const first = at(closes, from);
  let hi = Math.floor(first / box);
  let lo = hi;
  let dir: 0 | 1 | -1 = 0;
  let columns = 1;
  for (let i = from + 1; i <= to; i++) {
    const c = at(closes, i);
    const up = Math.floor(c / box);
    const down = Math.ceil(c / box);
    if (dir >= 0 && up > hi) {
      hi = up;
      if (dir === 0) dir = 1;
    } else if (dir <= 0 && down < lo) {
      lo = down;
      if (dir === 0) dir = -1;
    } else if (dir === 1 && down <= hi - reversal) {
      dir = -1;
      lo = down;
      columns++;
    } else if (dir === -1 && up >= lo + reversal) {
      dir = 1;
      hi = up;
      columns++;
    }
  }
  return columns;
}
