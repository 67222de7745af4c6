/** `run_funnel_simulation`: the Wyckoff screening funnel run synchronously over cached bars (MCP). */
import { z } from "zod";
import { ScreenCandidate, ScreenInput, ScreeningResult, ScreenSummary } from "../../contracts/screening";
import { defineToolSpec } from "./define";

/** The `run_funnel_simulation` tool. */
export const runFunnelSimulationSpec = defineToolSpec({
  name: "run_funnel_simulation",
  title: { zh: "漏斗模拟", en: "Funnel simulation" },
  description:
    "Runs the Wyckoff funnel (L1 liquidity → L2 channels → L3 sectors → L4 triggers → L5 confirmation + regime) now, over the cached bars of a market (the simulated market offline), and answers in this call: per-layer counts, the top `limit` candidates, regime, and details (rejections per layer, trigger groups, top sectors, symbols for a report). screen_stocks runs the same funnel as a background task.",
  input: ScreenInput,
  output: z.object({
    success: z.boolean(),
    market: ScreeningResult.shape.market,
    board: ScreeningResult.shape.board,
    universe: z.string(),
    asOf: z.string().nullable(),
    simulated: z.boolean(),
    regime: ScreeningResult.shape.regime,
    layers: ScreenSummary,
    candidates: z.array(ScreenCandidate),
    details: z.object({
      rejections: ScreeningResult.shape.rejections,
      trigger_groups: ScreeningResult.shape.trigger_groups,
      top_sectors: ScreeningResult.shape.top_sectors,
      symbols_for_report: z.array(z.string()),
      notes: z.array(z.string()),
    }),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
