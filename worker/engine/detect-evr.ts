/**
 * Effort vs result (EVR): heavy volume (≥ 1.8×) that moves price little (|change| ≤ 2% × board
 * scale, spread ≤ 1.2× average) inside the range. In the lower half it is absorption (bullish), near resistance after
 * an advance it is supply (bearish). Judged at t−1 and confirmed by bar t.
 */
import { at } from "./numeric";
import { confidence, fpct, fx, margin } from "./event-util";
import type { RawEvent, ScanContext } from "./structure-types";

/** EVR at bar t−1 inside the range [support, resistance], confirmed at t; null if none. */
export function detectEVR(ctx: ScanContext, support: number, resistance: number, t: number): RawEvent | null {
  const { s, p, scale } = ctx;
  const i = t - 1;
  if (i < p.avgWindow || at(s.frozen, i) === 1) return null;
  const vr = at(s.vr, i);
  const pct = at(s.pct, i);
  if (!(vr >= p.evrVr) || Math.abs(pct) > p.evrMaxPct * scale) return null;
  // The result is the bar's spread too (VSA): a wide bar on heavy volume is effort with result.
  const sr = at(s.sr, i);
  if (!(sr <= p.evrMaxSr)) return null;
  const low = at(s.low, i);
  const high = at(s.high, i);
  if (low < support || high > resistance) return null;
  const c = at(s.close, i);
  const pos = (c - support) / (resistance - support);
  let variant: "absorption" | "supply";
  if (pos <= 0.5 && at(s.close, t) >= low) variant = "absorption";
  else if (pos >= 0.75 && at(s.close, i) > at(s.close, Math.max(0, i - 10)) && at(s.close, t) <= high)
    variant = "supply";
  else return null;
  return {
    type: "EVR",
    index: i,
    confirmedAt: t,
    price: c,
    vr,
    variant,
    confidence: confidence(0.4, [
      [0.3, margin(vr, p.evrVr, 3)],
      [0.3, margin(p.evrMaxPct * scale - Math.abs(pct), 0, p.evrMaxPct * scale)],
    ]),
    reasons: [
      `volume ${fx(vr)} the average moved price only ${fpct(pct)} on a ${fx(sr)} spread`,
      variant === "absorption"
        ? `in the lower half of the range (${fpct(pos)} up): demand absorbing supply; next close held the low`
        : `near resistance after an advance (${fpct(pos)} up): supply meeting demand`,
    ],
  };
}
