/**
 * Research report and strategy decision shapes (PARITY.md §2.2 `generate_ai_report`,
 * `generate_strategy_decision`; §2.4 Step 3 report camps and Step 4 OMS rules).
 */
import { z } from "zod";
import { ScreenBoard, ScreenMarket, ScreenSummary } from "./screening";

/** Most codes one report covers. */
export const MAX_REPORT_CODES = 10;

/** `generate_ai_report` input. */
export const ReportInput = z.object({
  stock_codes: z.array(z.string().trim().min(1).max(32)).min(1).max(MAX_REPORT_CODES).describe("≤ 10 codes"),
});
export type ReportInput = z.infer<typeof ReportInput>;

/** The three camps of WyckoffAgent's report. */
export const Camp = z.enum(["逻辑破产", "储备营地", "起跳板"]);
export type Camp = z.infer<typeof Camp>;

/** One stock's placement. */
export const CampEntry = z.object({
  code: z.string(),
  name: z.string(),
  close: z.number(),
  asOf: z.string(),
  camp: Camp,
  reasons: z.array(z.string()),
});
export type CampEntry = z.infer<typeof CampEntry>;

/** `generate_ai_report` result. */
export const ReportResult = z.object({
  ok: z.boolean(),
  reason: z.string(),
  report_text: z.string(),
  model: z.string(),
  /** True when the text is the engine's rule-based report (offline model or model failure). */
  rule_based: z.boolean(),
  stock_count: z.number().int(),
  camps: z.array(CampEntry),
  missing: z.array(z.string()),
  simulated: z.boolean(),
});
export type ReportResult = z.infer<typeof ReportResult>;

/** A held position as the OMS reads it. */
export const Holding = z.object({
  code: z.string().min(1).max(32),
  name: z.string().max(64).optional(),
  shares: z.number().int().positive(),
  cost_price: z.number().positive(),
  stop_loss: z.number().positive().optional().describe("the user's own stop; only ever tightened"),
});
export type Holding = z.infer<typeof Holding>;

/** `generate_strategy_decision` input. */
export const StrategyInput = z.object({
  board: ScreenBoard.default("all"),
  market: ScreenMarket.default("cn"),
  holdings: z.array(Holding).max(50).default([]),
  free_cash: z.number().nonnegative().default(0),
});
export type StrategyInput = z.infer<typeof StrategyInput>;

/** OMS actions in priority order. */
export const OmsAction = z.enum(["EXIT", "TRIM", "HOLD", "PROBE", "ATTACK"]);
export type OmsAction = z.infer<typeof OmsAction>;

/** One OMS order/decision. */
export const OmsDecision = z.object({
  action: OmsAction,
  priority: z.number().int(),
  code: z.string(),
  name: z.string(),
  shares: z.number().int(),
  price: z.number().nullable(),
  stop: z.number().nullable(),
  reasons: z.array(z.string()),
});
export type OmsDecision = z.infer<typeof OmsDecision>;

/** `generate_strategy_decision` result. */
export const StrategyResult = z.object({
  ok: z.boolean(),
  regime: z.string(),
  buys_frozen: z.boolean(),
  screen_summary: ScreenSummary,
  report_preview: z.string(),
  decisions: z.array(OmsDecision),
  nav: z.number(),
  rule_based: z.boolean(),
  notes: z.array(z.string()),
});
export type StrategyResult = z.infer<typeof StrategyResult>;
