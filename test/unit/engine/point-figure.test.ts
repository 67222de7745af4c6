import { describe, expect, it } from "vitest";
import { horizontalCountTarget, pnfColumns } from "../../../worker/engine/point-figure";

describe("point-and-figure", () => {
  it("matches the PDSnet S&P 500 horizontal count (box 40, reversal 3, 9 columns, low 1947 → 3027)", () => {
    expect(horizontalCountTarget({ columns: 9, box: 40, reversal: 3, base: 1947, direction: "up" })).toBe(3027);
  });

  it("matches the Dorsey Wright bearish example (8 columns × 2 × box 1 from 34 → 18)", () => {
    expect(horizontalCountTarget({ columns: 8, box: 1, reversal: 2, base: 34, direction: "down" })).toBe(18);
  });

  it("starts a new column on each 3-box reversal and ignores smaller wiggles", () => {
    const closes = [100, 104, 101.5, 105, 101, 98, 99, 102, 97];
    expect(pnfColumns(closes, 0, closes.length - 1, 1, 3)).toBe(4);
    expect(pnfColumns([100, 101, 100.5, 102], 0, 3, 1, 3)).toBe(1);
  });
});
