/**
 * Effort vs result metrics (DOMAIN.md §1.13 G, VPA definitions in §1.6): volume dry-up,
 * up/down volume balance and counts of No-Demand / No-Supply bars.
 */
import { at, meanOf } from "./numeric";
import type { Series } from "./series";

/** Effort/result figures at one bar. */
export interface EffortResult {
  /** mean(V, last 20) / mean(V over t−140..t−21); dry when < 0.75. NaN with too little history. */
  dryUp: number;
  /** Σ volume on up days / Σ volume on down days over 40 bars. */
  upDownVolume40: number;
  /** No-Demand bars in the last 20: up bar, narrow spread, volume below each of the two previous bars, close in the lower half. */
  noDemand20: number;
  /** No-Supply bars in the last 20: down bar, narrow spread, the same low volume, close in the upper half. */
  noSupply20: number;
}

/** Narrow-spread factor of the VPA definitions (spread < 0.7 × average). */
const NARROW = 0.7;

/** Effort/result at bar t. */
export function effortResultAt(s: Series, t: number): EffortResult {
  const dryUp = t >= 140 ? meanOf(s.volume, t - 19, t + 1) / meanOf(s.volume, t - 140, t - 20) : Number.NaN;
  let up = 0;
  let down = 0;
  for (let i = Math.max(1, t - 39); i <= t; i++) {
    const d = at(s.close, i) - at(s.close, i - 1);
    if (d > 0) up += at(s.volume, i);
    else if (d < 0) down += at(s.volume, i);
  }
  let noDemand20 = 0;
  let noSupply20 = 0;
  for (let i = Math.max(2, t - 19); i <= t; i++) {
    const v = at(s.volume, i);
    const lowVol = v < at(s.volume, i - 1) && v < at(s.volume, i - 2);
    if (!lowVol || !(at(s.sr, i) < NARROW)) continue;
    const d = at(s.close, i) - at(s.close, i - 1);
    if (d > 0 && at(s.cp, i) < 0.5) noDemand20++;
    if (d < 0 && at(s.cp, i) > 0.5) noSupply20++;
  }
  return { dryUp, upDownVolume40: down > 0 ? up / down : Number.NaN, noDemand20, noSupply20 };
}
