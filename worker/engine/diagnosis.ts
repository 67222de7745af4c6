/**
 * Position-aware diagnosis for portfolio use (PARITY.md §2.4 holding diagnostic): P&L against the
 * cost, stop status, and danger / warning / positive signs folded into one grade.
 */
import type { Analysis, HealthGrade } from "../contracts/analysis";

/** A held position. */
export interface Position {
  cost: number;
  /** A user stop; may only tighten the engine's. */
  stop?: number;
}

/** Diagnosis of a position at the analysis date. */
export interface Diagnosis {
  pnlPct: number;
  stop: number;
  stopStatus: "ok" | "near" | "hit";
  grade: HealthGrade;
  danger: string[];
  warnings: string[];
  positives: string[];
}

/** Diagnoses `position` against `analysis` (its last close and stops). */
export function diagnosePosition(analysis: Analysis, position: Position): Diagnosis {
  const close = analysis.indicators.close;
  const pnl = close / position.cost - 1;
  const costStop = position.cost * 0.93;
  const candidates = [costStop, analysis.stops.structural ?? 0, analysis.stops.trailing ?? 0, position.stop ?? 0];
  const stop = Math.max(...candidates);
  const stopStatus = close <= stop ? "hit" : close <= stop * 1.02 ? "near" : "ok";
  const danger: string[] = [];
  const warnings: string[] = [];
  const positives: string[] = [];
  if (close <= costStop) danger.push("at or below the −7% cost stop");
  if (stopStatus === "hit") danger.push("stop hit");
  const { ma20, ma50, ma200 } = analysis.indicators;
  if (ma20 !== null && ma50 !== null && ma200 !== null) {
    if (ma20 < ma50 && ma50 < ma200) danger.push("bearish moving-average stack");
    if (ma20 > ma50 && ma50 > ma200) positives.push("bullish moving-average stack");
  }
  if (analysis.phase.name === "MARKDOWN" || analysis.phase.name.startsWith("DIST"))
    warnings.push(`phase ${analysis.phase.name}`);
  if (stopStatus === "near") warnings.push("within 2% of the stop");
  if (pnl < -0.05) warnings.push("loss beyond 5%");
  if (analysis.health.grade === "danger") warnings.push("structure health poor");
  if (analysis.triggers.some((t) => t.status === "confirmed")) positives.push("a confirmed L4 trigger");
  if (analysis.phase.name === "ACC_D" || analysis.phase.name === "ACC_E" || analysis.phase.name === "MARKUP")
    positives.push(`phase ${analysis.phase.name}`);
  const grade: HealthGrade =
    danger.length > 0
      ? "danger"
      : warnings.length >= 2 || (warnings.length === 1 && positives.length === 0)
        ? "warning"
        : "healthy";
  return {
    pnlPct: Math.round(pnl * 10000) / 10000,
    stop: Math.round(stop * 10000) / 10000,
    stopStatus,
    grade,
    danger,
    warnings,
    positives,
  };
}
