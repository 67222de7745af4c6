/**
 * The intraday "rescue" reading (DOMAIN.md §1.6, WyckoffAgent `core/intraday_shakeout.py` behaviour):
 * one session's minute bars classified as a washout (support broken intraday, then reclaimed with a
 * close high in the day's range), distribution (a weak close with the volume in the tail, or a
 * support break that was not reclaimed) or strong (a high close without a break), else neutral.
 * Thresholds from DOMAIN: close position 0.62 strong / 0.38 weak, tail-volume share 0.55, support
 * breach tolerance 0.3%. Pure: bars and the support level in, a classification with reasons out.
 */
import { round } from "./numeric";

/** DOMAIN.md §1.6 thresholds. */
export const RESCUE_THRESHOLDS = {
  /** Close position in the day's range at or above which the close is strong. */
  strongClose: 0.62,
  /** Close position at or below which the close is weak. */
  weakClose: 0.38,
  /** Share of the session's volume in its second half at or above which the tail carries the volume. */
  tailVolumeShare: 0.55,
  /** A low more than this fraction below support is a breach (0.3%). */
  breachTolerance: 0.003,
} as const;

/** One intraday bar (oldest first). */
export interface RescueBar {
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The classification of a session. */
export type RescueClass = "washout" | "distribution" | "strong" | "neutral";

/** What the reading found. */
export interface RescueReading {
  classification: RescueClass;
  /** (close − low) / (high − low) of the session; 0.5 when the range is flat. */
  closePosition: number;
  /** Share of the session's volume traded in its second half (null with no volume). */
  tailVolumeShare: number | null;
  high: number;
  low: number;
  close: number;
  support: number | null;
  /** The low went more than the tolerance below support. */
  supportBreached: boolean;
  /** After a breach, the session closed back at or above support. */
  supportReclaimed: boolean;
  reasons: string[];
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * Classifies one session. `bars` are the session's minute bars in order (at least one); `support`
 * the daily support level the session is read against (null: no breach test, so never a washout).
 */
export function classifyRescue(bars: readonly RescueBar[], support: number | null): RescueReading | null {
  const last = bars[bars.length - 1];
  if (!last) return null;
  const t = RESCUE_THRESHOLDS;
  let high = -Infinity;
  let low = Infinity;
  let total = 0;
  let tail = 0;
  const half = Math.floor(bars.length / 2);
  bars.forEach((b, i) => {
    high = Math.max(high, b.high);
    low = Math.min(low, b.low);
    total += b.volume;
    if (i >= half) tail += b.volume;
  });
  const closePosition = high > low ? (last.close - low) / (high - low) : 0.5;
  const tailShare = total > 0 ? tail / total : null;
  const validSupport = support !== null && Number.isFinite(support) && support > 0 ? support : null;
  const breached = validSupport !== null && low < validSupport * (1 - t.breachTolerance);
  const reclaimed = breached && validSupport !== null && last.close >= validSupport;
  const tailHeavy = tailShare !== null && tailShare >= t.tailVolumeShare;
  const reasons: string[] = [
    `close at ${pct(closePosition)} of the day's range (strong ≥ ${pct(t.strongClose)}, weak ≤ ${pct(t.weakClose)})`,
  ];
  if (tailShare !== null)
    reasons.push(
      `${pct(tailShare)} of the volume in the second half of the session (tail-heavy ≥ ${pct(t.tailVolumeShare)})`,
    );
  if (validSupport !== null)
    reasons.push(
      breached
        ? `low ${round(low, 4)} broke support ${round(validSupport, 4)} by ${pct(1 - low / validSupport)} (tolerance ${pct(t.breachTolerance)})${reclaimed ? `, and the close ${round(last.close, 4)} reclaimed it` : `, and the close ${round(last.close, 4)} stayed below it`}`
        : `low ${round(low, 4)} held support ${round(validSupport, 4)} (within the ${pct(t.breachTolerance)} tolerance)`,
    );
  else reasons.push("no daily support level: no breach test");
  let classification: RescueClass;
  if (breached && reclaimed && closePosition >= t.strongClose) classification = "washout";
  else if (closePosition <= t.weakClose && (tailHeavy || (breached && !reclaimed))) classification = "distribution";
  else if (!breached && closePosition >= t.strongClose) classification = "strong";
  else classification = "neutral";
  return {
    classification,
    closePosition: round(closePosition, 3),
    tailVolumeShare: tailShare === null ? null : round(tailShare, 3),
    high,
    low,
    close: last.close,
    support: validSupport,
    supportBreached: breached,
    supportReclaimed: reclaimed,
    reasons,
  };
}
