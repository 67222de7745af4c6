/** `portfolio`: the user's holdings (view) or a Wyckoff health check of each holding (diagnose). */
import { z } from "zod";
import { HealthGrade } from "../../contracts/analysis";
import { Position } from "../../contracts/portfolio";
import { defineToolSpec } from "./define";

/** One holding's diagnosis (position-aware health from the engine), or why it could not be made. */
export const HoldingDiagnostic = z.object({
  code: z.string(),
  name: z.string(),
  shares: z.number(),
  cost: z.number(),
  ok: z.boolean(),
  error: z.string().optional(),
  latestClose: z.number().optional(),
  latestDate: z.string().optional(),
  pnlPct: z.number().optional(),
  marketValue: z.number().optional(),
  /** The position's grade: health plus cost, stop and danger/warning signs. */
  grade: HealthGrade.optional(),
  /** The symbol's health score and grade (the same computation as analyze_stock and the chart page). */
  healthScore: z.number().optional(),
  healthGrade: HealthGrade.optional(),
  phase: z.string().optional(),
  stop: z.number().optional(),
  stopStatus: z.enum(["ok", "near", "hit"]).optional(),
  danger: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional(),
  positives: z.array(z.string()).optional(),
  simulated: z.boolean().optional(),
  stale: z.boolean().optional(),
});
export type HoldingDiagnostic = z.infer<typeof HoldingDiagnostic>;

/** The `portfolio` tool. */
export const portfolioSpec = defineToolSpec({
  name: "portfolio",
  title: { zh: "持仓", en: "Portfolio" },
  description:
    "The user's portfolio. mode=view: free cash and positions (code, name, shares, cost, buy date, stop). mode=diagnose: also each holding's Wyckoff health (healthScore/healthGrade, the same as analyze_stock) and its position grade against cost and stop (P&L, grade healthy/warning/danger, stop status, phase, reasons), run in parallel. Relay simulated/stale flags. To change holdings use update_portfolio.",
  input: z.object({ mode: z.enum(["view", "diagnose"]).default("view") }),
  output: z.object({
    mode: z.enum(["view", "diagnose"]),
    freeCash: z.number(),
    positionCount: z.number().int(),
    positions: z.array(Position),
    updatedAt: z.string().nullable(),
    successfulCount: z.number().int().optional(),
    failedCount: z.number().int().optional(),
    diagnostics: z.array(HoldingDiagnostic).optional(),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
