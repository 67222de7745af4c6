/**
 * Handler of `run_funnel_simulation` (MCP): the `Screener` port's in-process funnel, reshaped as
 * WyckoffAgent's `{ success, candidates, regime, details }` with the per-layer counts; candidates are
 * bounded by `limit` (≤ 30).
 */
import { err, ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { runFunnelSimulationSpec } from "../specs/run-funnel-simulation";

/** Runs the funnel and reshapes its result. */
export const runFunnelSimulationHandler: ToolHandler<typeof runFunnelSimulationSpec> = async (input, deps) => {
  if (!deps.screener)
    return err("internal", "the in-process funnel is not wired here; use screen_stocks (a background task)");
  const r = await deps.screener.run(input, { maxCandidates: input.limit });
  if (!r.ok) return r;
  const s = r.value;
  return ok({
    success: s.ok,
    market: s.market,
    board: s.board,
    universe: s.universe,
    asOf: s.asOf,
    simulated: s.simulated,
    regime: s.regime,
    layers: s.summary,
    candidates: s.candidates.slice(0, input.limit),
    details: {
      rejections: s.rejections,
      trigger_groups: s.trigger_groups,
      top_sectors: s.top_sectors,
      symbols_for_report: s.symbols_for_report,
      notes: s.notes,
    },
  });
};
