/**
 * Backtest input and result (PARITY.md §2.2 `run_backtest`, §2.5 rules): a day-by-day replay of the
 * screening funnel with next-open entries, T+1, unfillable one-price limit days, friction and regime
 * sizing, and the metrics WyckoffAgent reports plus CVaR95, Calmar and the NAV curve.
 */
import { z } from "zod";
import { BarDate } from "./analysis";
import { ScreenBoard, ScreenMarket } from "./screening";

/** How positions are closed. */
export const ExitMode = z.enum(["close_only", "sltp", "atr"]);
export type ExitMode = z.infer<typeof ExitMode>;

/** Backtest input. Percentages are percent (−8 = −8%). */
export const BacktestInput = z
  .object({
    start: BarDate.optional().describe("first signal day YYYY-MM-DD; default: one year before end"),
    end: BarDate.optional().describe("last signal day; default: the latest cached bar"),
    hold_days: z.number().int().min(1).max(120).default(15),
    top_n: z.number().int().min(1).max(10).default(2).describe("entries per signal day"),
    board: ScreenBoard.default("all"),
    market: ScreenMarket.default("cn"),
    stop_loss_pct: z.number().min(-50).max(-0.5).default(-8),
    take_profit_pct: z.number().min(0.5).max(500).nullable().default(18),
    exit_mode: ExitMode.default("sltp"),
    sltp_priority: z.enum(["stop_first", "take_first"]).default("stop_first"),
    entry_price: z.enum(["next_open", "next_close"]).default("next_open"),
    symbol: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .optional()
      .describe("backtest only this symbol of the market (code or id, e.g. SIM.0002); omit for the whole market"),
  })
  .refine((v) => !v.start || !v.end || v.start <= v.end, { message: "start must not be after end", path: ["start"] });
export type BacktestInput = z.infer<typeof BacktestInput>;

/** One simulated trade. */
export const BacktestTrade = z.object({
  code: z.string(),
  signalDate: z.string(),
  entryDate: z.string(),
  entryPrice: z.number(),
  exitDate: z.string(),
  exitPrice: z.number(),
  exitReason: z.string(),
  retPct: z.number(),
  weight: z.number(),
  regime: z.string(),
});
export type BacktestTrade = z.infer<typeof BacktestTrade>;

/** Backtest result (WyckoffAgent field names, plus ours). */
export const BacktestResult = z.object({
  period: z.string(),
  hold_days: z.number(),
  top_n: z.number(),
  board: z.string(),
  exit_mode: ExitMode,
  stop_loss_pct: z.number(),
  take_profit_pct: z.number().nullable(),
  universe: z.string(),
  symbols: z.number().int(),
  signal_days: z.number().int(),
  trades: z.number().int(),
  skipped_unfillable: z.number().int(),
  win_rate_pct: z.number(),
  avg_ret_pct: z.number(),
  median_ret_pct: z.number(),
  sharpe_ratio: z.number(),
  max_drawdown_pct: z.number(),
  calmar_ratio: z.number(),
  information_ratio: z.number().nullable(),
  cvar95_pct: z.number(),
  max_consecutive_losses: z.number().int(),
  portfolio_total_ret_pct: z.number(),
  portfolio_ann_ret_pct: z.number(),
  nav: z.array(z.object({ date: z.string(), nav: z.number() })),
  trade_list: z.array(BacktestTrade),
  caveats: z.array(z.string()),
  /** The benchmark index's NAV over the same dates as `nav` (1 at the first date), and its code. */
  benchmark: z.string().optional(),
  benchmark_nav: z.array(z.object({ date: z.string(), nav: z.number() })).optional(),
});
export type BacktestResult = z.infer<typeof BacktestResult>;
