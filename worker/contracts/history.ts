/**
 * `query_history` (PARITY.md §2.2): stored screening runs read back — recommendations (with the
 * price since), signals with status counts, and tail-buy records.
 */
import { z } from "zod";
import { BarDate } from "./analysis";

/** `query_history` input. */
export const HistoryQuery = z.object({
  source: z.enum(["recommendation", "signal", "tail_buy"]).default("signal"),
  status: z.enum(["pending", "confirmed", "expired"]).optional().describe("signals only"),
  run_date: BarDate.optional().describe("a calendar date YYYY-MM-DD"),
  decision: z.string().max(16).optional().describe("tail_buy only: BUY / WATCH / SKIP"),
  limit: z.number().int().min(1).max(200).default(20),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** A recommendation row. */
export const RecommendationRow = z.object({
  code: z.string(),
  name: z.string(),
  recommend_date: z.string(),
  recommend_price: z.number(),
  current_price: z.number().nullable(),
  pnl_pct: z.number().nullable(),
  camp: z.string().nullable(),
  task_id: z.string(),
});
export type RecommendationRow = z.infer<typeof RecommendationRow>;

/** A tracked signal row. */
export const SignalRow = z.object({
  code: z.string(),
  name: z.string(),
  signal_type: z.string(),
  signal_date: z.string(),
  status: z.enum(["pending", "confirmed", "expired"]),
  ttl_days: z.number().int(),
  signal_score: z.number(),
  snap_close: z.number(),
  regime: z.string().nullable(),
  industry: z.string().nullable(),
  task_id: z.string(),
});
export type SignalRow = z.infer<typeof SignalRow>;

/** A tail-buy decision (the 14:30 job over the day's recommendation list). */
export const TailBuyRow = z.object({
  code: z.string(),
  name: z.string(),
  run_date: z.string(),
  decision: z.enum(["BUY", "WATCH", "SKIP"]),
  /** The rule score /100 (the intraday strength). */
  score: z.number(),
  /** The intraday rescue reading: washout, distribution, strong or neutral. */
  classification: z.string(),
  reason: z.string(),
  price: z.number(),
  vwap: z.number().nullable(),
  /** True when the intraday path was simulated (the offline market). */
  simulated: z.boolean(),
});
export type TailBuyRow = z.infer<typeof TailBuyRow>;

/** `query_history` output. */
export const HistoryResult = z.object({
  source: z.enum(["recommendation", "signal", "tail_buy"]),
  rows: z.array(z.union([RecommendationRow, SignalRow, TailBuyRow])),
  status_counts: z.record(z.string(), z.number().int()).optional(),
  message: z.string(),
});
export type HistoryResult = z.infer<typeof HistoryResult>;
