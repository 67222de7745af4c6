/**
 * Health score 0–100 (DOMAIN.md §1.13 K): structure, events, effort/result, relative strength and
 * trend/location points, minus penalties for distribution signs, capped by the regime. Every
 * contribution carries a reason. Monotonic: a further bullish confirmation never lowers it.
 */
import type { Health, PhaseName } from "../contracts/analysis";
import type { EffortResult } from "./effort-result";
import type { RegimeState } from "./market-regime";
import type { Failure, RawEvent } from "./structure-types";

/** Everything the score reads. NaN means "unknown" and earns no points. */
export interface HealthInput {
  phase: PhaseName;
  rangeQuality: number | null;
  /** Events of the current structure (since the last climax). */
  events: readonly RawEvent[];
  /** All events, for recent penalties. */
  allEvents: readonly RawEvent[];
  failures: readonly Failure[];
  t: number;
  effort: EffortResult;
  mansfield: number;
  rs10: number;
  rps120?: number;
  resilience: number;
  close: number;
  ma50: number;
  ma50Prev: number;
  ma200: number;
  low250: number;
  resistance: number | null;
  regime?: RegimeState;
}

const PHASE_BONUS: Partial<Record<PhaseName, number>> = { ACC_C: 5, ACC_D: 8, ACC_E: 3 };

/** Scores health. */
export function scoreHealth(x: HealthInput): Health {
  const reasons: string[] = [];
  const add = (points: number, reason: string): number => {
    if (points !== 0) reasons.push(`${points > 0 ? "+" : ""}${points} ${reason}`);
    return points;
  };
  let structure = 0;
  if (x.rangeQuality !== null)
    structure += add(Math.round(30 * x.rangeQuality), `trading range quality ${x.rangeQuality.toFixed(2)}`);
  const bonus = PHASE_BONUS[x.phase] ?? 0;
  if (bonus) structure += add(bonus, `phase ${x.phase}`);
  structure = Math.min(30, structure);

  const has = (type: RawEvent["type"]): RawEvent | undefined => x.events.find((e) => e.type === type);
  let events = 0;
  const spring = has("Spring");
  if (spring && (has("Test") || spring.variant === "#3")) events += add(12, "Spring confirmed (tested or #3)");
  if (has("ST")) events += add(4, "secondary test held");
  if (has("SOS")) events += add(3, "sign of strength");
  if (has("LPS") || has("BU")) events += add(8, "last point of support confirmed");
  events = Math.min(20, events);

  let effort = 0;
  const inBC = x.phase === "ACC_B" || x.phase === "ACC_C";
  if (inBC && x.effort.dryUp < 0.75) effort += add(5, `volume dried up (${x.effort.dryUp.toFixed(2)}×)`);
  if (x.effort.upDownVolume40 >= 1.2)
    effort += add(5, `up-day volume ${x.effort.upDownVolume40.toFixed(2)}× down-day volume`);
  if (x.events.some((e) => e.type === "EVR" && e.variant === "absorption"))
    effort += add(5, "absorption in the lower half of the range");
  effort = Math.min(15, effort);

  let rs = 0;
  if (x.mansfield > 0) rs += add(6, "Mansfield RS above zero");
  if (x.rs10 >= 0.02) rs += add(5, "beat the benchmark by ≥ 2% over 10 days");
  if (x.rps120 !== undefined && x.rps120 >= 70) rs += add(5, `RPS120 ${x.rps120.toFixed(0)}`);
  if (x.resilience >= 0.6) rs += add(4, "held up on most benchmark down days");
  rs = Math.min(20, rs);

  let trend = 0;
  if (x.close > x.ma50) trend += add(5, "close above MA50");
  if (x.ma50 - x.ma50Prev >= 0) trend += add(4, "MA50 rising");
  if (x.close / x.ma200 - 1 <= 0.25) trend += add(3, "not overextended above MA200");
  if (x.close <= 1.45 * x.low250 || (x.resistance !== null && x.close > x.resistance))
    trend += add(3, "near the base or above resistance");
  trend = Math.min(15, trend);

  let penalties = 0;
  const recent = (e: RawEvent): boolean => x.t - e.index <= 60;
  if (x.allEvents.some((e) => (e.type === "UT" || e.type === "UTAD") && recent(e)))
    penalties += add(-15, "upthrust in the last 60 bars");
  if (x.allEvents.some((e) => e.type === "SOW" && recent(e)))
    penalties += add(-20, "sign of weakness in the last 60 bars");
  if (x.failures.some((f) => f.kind === "spring_failed" && x.t - f.index <= 60)) penalties += add(-20, "failed Spring");
  if (x.allEvents.some((e) => e.type === "BC" && x.t - e.index <= 20))
    penalties += add(-10, "buying climax within 20 bars");

  let score = Math.max(0, Math.min(100, structure + events + effort + rs + trend + penalties));
  if ((x.regime === "RISK_OFF" || x.regime === "CRASH") && score > 50) {
    score = 50;
    reasons.push(`capped at 50: market regime ${x.regime}`);
  }
  const grade = score >= 60 ? "healthy" : score >= 40 ? "warning" : "danger";
  return {
    score,
    grade,
    reasons,
    components: { structure, events, effortResult: effort, relativeStrength: rs, trend, penalties },
  };
}
