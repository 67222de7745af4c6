/**
 * Finds the engine analysis (CONTRACTS.md shape) inside a tool's output, so the card and the chart
 * draw the very object the model saw. Validated with the contract schema; anything else is null.
 */
import { Analysis } from "@contracts/analysis";

/** The analysis in `output.analysis` or `output` itself, when it has the contract's shape. */
export function analysisOf(output: unknown): Analysis | null {
  if (typeof output !== "object" || output === null) return null;
  const nested = "analysis" in output ? output.analysis : undefined;
  for (const candidate of [nested, output]) {
    if (candidate === undefined || candidate === null) continue;
    const parsed = Analysis.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** Bars to ask for so the chart covers the analysis' structure (range, events, phase) with some lead-in. */
export function chartDays(a: Analysis): number {
  const dates = [a.asOf, a.phase.since, a.tradingRange?.from, ...a.events.map((e) => e.date)].filter(
    (d): d is string => typeof d === "string",
  );
  const first = dates.reduce((m, d) => (d < m ? d : m), a.asOf);
  const calendarDays = (Date.parse(a.asOf) - Date.parse(first)) / 86_400_000;
  // ~5 trading days per 7 calendar days, plus a lead-in; at least half a year, at most two years.
  return Math.min(500, Math.max(120, Math.ceil((calendarDays * 5) / 7) + 40));
}
