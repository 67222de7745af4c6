/**
 * The intraday rescue rule (DOMAIN.md §1.6 thresholds): washout, distribution, strong and neutral
 * sessions, each threshold on both sides of its edge.
 */
import { describe, expect, it } from "vitest";
import { classifyRescue, RESCUE_THRESHOLDS, type RescueBar } from "../../../worker/engine/intraday-rescue";

/** A session from closes (high/low a hair around each close) with volumes. */
function session(closes: number[], volumes: number[] = closes.map(() => 100)): RescueBar[] {
  return closes.map((c, i) => ({ high: c + 0.01, low: c - 0.01, close: c, volume: volumes[i] ?? 100 }));
}

describe("classifyRescue", () => {
  it("a break of support reclaimed into the upper range is a washout", () => {
    // Opens at 10, dives to 9.6 (support 9.9: a 3% break), closes at 9.95 near the top.
    const r = classifyRescue(session([10, 9.8, 9.6, 9.7, 9.9, 9.95]), 9.9);
    expect(r?.classification).toBe("washout");
    expect(r?.supportBreached).toBe(true);
    expect(r?.supportReclaimed).toBe(true);
    expect(r?.reasons.join(" ")).toContain("reclaimed");
  });

  it("a break not reclaimed with a weak close is distribution; so is a weak close on tail volume", () => {
    const broken = classifyRescue(session([10, 9.9, 9.7, 9.6, 9.62, 9.61]), 9.9);
    expect(broken?.classification).toBe("distribution");
    expect(broken?.supportReclaimed).toBe(false);
    // No break (support far below), weak close, 75% of the volume in the second half.
    const tail = classifyRescue(session([10, 10.2, 10.4, 10.1, 10.0, 10.05], [50, 50, 50, 150, 150, 150]), 9);
    expect(tail?.tailVolumeShare).toBe(0.75);
    expect(tail?.classification).toBe("distribution");
    // Same path with the volume early: a weak close alone is not distribution.
    const early = classifyRescue(session([10, 10.2, 10.4, 10.1, 10.0, 10.05], [150, 150, 150, 50, 50, 50]), 9);
    expect(early?.classification).toBe("neutral");
  });

  it("a high close without a break is strong; the strong-close edge is 0.62", () => {
    expect(classifyRescue(session([10, 10.1, 10.2, 10.3]), 9)?.classification).toBe("strong");
    // Range 10..11 (bar extremes ± 0.01); close position just below and at 0.62.
    const at = (close: number) =>
      classifyRescue(
        [
          { high: 11, low: 10.5, close: 10.8, volume: 100 },
          { high: 10.6, low: 10, close: 10.2, volume: 100 },
          { high: close, low: close, close, volume: 100 },
        ],
        9,
      );
    expect(RESCUE_THRESHOLDS.strongClose).toBe(0.62);
    expect(at(10.61)?.classification).toBe("neutral");
    expect(at(10.63)?.classification).toBe("strong");
  });

  it("breach tolerance: a dip within 0.3% of support is not a break", () => {
    const within = classifyRescue(session([10, 9.99, 9.975, 10.1, 10.2]), 10);
    // Low 9.965 is 0.35% below 10: a break; 9.975 − 0.01 = 9.965. Move support down to 9.99: 0.25%.
    expect(within?.supportBreached).toBe(true);
    const inside = classifyRescue(session([10, 9.99, 9.975, 10.1, 10.2]), 9.99);
    expect(inside?.supportBreached).toBe(false);
    expect(inside?.classification).toBe("strong");
  });

  it("no support: no breach test and never a washout; no bars: null", () => {
    const r = classifyRescue(session([10, 9, 9.9]), null);
    expect(r?.supportBreached).toBe(false);
    expect(r?.classification).not.toBe("washout");
    expect(r?.reasons).toContain("no daily support level: no breach test");
    expect(classifyRescue([], 10)).toBeNull();
  });
});
