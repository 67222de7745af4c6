/**
 * Market regime from index bars plus optional breadth (DOMAIN.md §1.9, states renamed plainly per
 * §1.13 J): BULL / NEUTRAL / CAUTION / RISK_OFF / CRASH / REPAIR / REPAIR_CONFIRMED.
 */
import type { Bar } from "../contracts/analysis";
import { at } from "./numeric";
import { sma } from "./moving-average";

/** Regime states. */
export type RegimeState = "BULL" | "NEUTRAL" | "CAUTION" | "RISK_OFF" | "CRASH" | "REPAIR" | "REPAIR_CONFIRMED";

/** Breadth on one day, aligned with the index's last bars (last element = last index bar). */
export interface BreadthDay {
  /** % of the universe with close ≥ its MA20 (0–100). */
  aboveMa20: number;
  /** % of the universe up on the day (0–100), if known. */
  upRatio?: number;
}

/** The regime at the last bar with the reasons behind it. */
export interface Regime {
  state: RegimeState;
  structure: "BULL" | "BEAR" | "TRANSITION";
  reasons: string[];
}

/** True when new entry triggers are blocked. */
export function blocksEntries(state: RegimeState): boolean {
  return state === "RISK_OFF" || state === "CRASH";
}

/** Regime of `index` at its last bar; `smallCap` and `breadth` refine it when given. */
export function marketRegime(
  index: readonly Bar[],
  o: { smallCap?: readonly Bar[]; breadth?: readonly BreadthDay[] } = {},
): Regime {
  const n = index.length;
  const close = index.map((b) => b.close);
  const ma50 = sma(close, 50);
  const ma200 = sma(close, 200);
  const dayRet = (bars: readonly Bar[] | undefined, t: number): number => {
    const a = bars?.[t];
    const b = bars?.[t - 1];
    return a && b ? a.close / b.close - 1 : Number.NaN;
  };
  const breadthAt = (t: number): BreadthDay | undefined => o.breadth?.[o.breadth.length - (n - t)];
  let prev: RegimeState = "NEUTRAL";
  let result: Regime = { state: "NEUTRAL", structure: "TRANSITION", reasons: ["not enough index history"] };
  for (let t = Math.max(0, n - 10); t < n; t++) {
    const reasons: string[] = [];
    const c = at(close, t);
    const m50 = at(ma50, t);
    const m200 = at(ma200, t);
    const slope = at(ma50, t) - at(ma50, t - 5);
    let structure: Regime["structure"] = "TRANSITION";
    if (c > m50 && m50 > m200 && slope > 0) structure = "BULL";
    else if (c < m200 && m50 < m200 && slope < 0) structure = "BEAR";
    const ret3 = t >= 3 ? c / at(close, t - 3) - 1 : 0;
    let state: RegimeState = structure === "BEAR" ? "RISK_OFF" : structure === "BULL" && ret3 >= 0 ? "BULL" : "NEUTRAL";
    reasons.push(`index structure ${structure.toLowerCase()}`);
    const br = breadthAt(t);
    const brPrev = breadthAt(t - 1);
    const brDelta = br && brPrev ? br.aboveMa20 - brPrev.aboveMa20 : 0;
    if (br) {
      if (br.aboveMa20 <= 20 || brDelta <= -10) {
        state = "RISK_OFF";
        reasons.push(`breadth ${br.aboveMa20.toFixed(0)}% above MA20 (change ${brDelta.toFixed(0)}pp)`);
      } else if (state === "BULL" && (br.aboveMa20 < 60 || (br.upRatio !== undefined && br.upRatio <= 35))) {
        state = "CAUTION";
        reasons.push("bull structure without broad participation");
      } else if (state === "NEUTRAL" && br.aboveMa20 >= 60 && brDelta >= 0 && structure !== "BULL") {
        state = "CAUTION";
        reasons.push("broad rebound without a bull structure");
      }
    }
    const main = dayRet(index, t);
    const small = dayRet(o.smallCap, t);
    const priceTrigger = main <= -0.013 || small <= -0.025;
    const breadthTrigger = br !== undefined && (br.aboveMa20 <= 15 || brDelta <= -20);
    if ((priceTrigger && breadthTrigger) || main <= -0.03) {
      state = "CRASH";
      reasons.push(`panic: index ${(main * 100).toFixed(1)}% on the day`);
    } else if (
      prev === "CRASH" &&
      (main >= 0.008 || small >= 0.015) &&
      (br?.upRatio === undefined || br.upRatio >= 60)
    ) {
      state = "REPAIR";
      reasons.push("rebound the day after a crash");
    } else if (prev === "REPAIR" && main >= 0 && (br?.upRatio === undefined || br.upRatio >= 50)) {
      state = "REPAIR_CONFIRMED";
      reasons.push("second day of repair held");
    }
    prev = state;
    result = { state, structure, reasons };
  }
  return result;
}
