/** `intraday_rescue_check`: the latest session's minute bars read as washout, distribution or strong (MCP). */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { CodeInput, MarketSource, SymbolBrief } from "./market-source";

/** The `intraday_rescue_check` tool. */
export const intradayRescueCheckSpec = defineToolSpec({
  name: "intraday_rescue_check",
  title: { zh: "盘中承接检查", en: "Intraday rescue check" },
  description:
    "The latest session of one symbol against its daily support (the trading range known before the session, else the prior day's low): washout (support broken intraday and reclaimed, close ≥ 62% of the range), distribution (close ≤ 38% with ≥ 55% of volume in the tail, or a break not reclaimed), strong, or neutral; with VWAP and strength from intraday_analysis. interval 1 or 5 minutes.",
  input: z.object({ code: CodeInput, interval: z.union([z.literal(1), z.literal(5)]).default(5) }),
  output: z.object({
    symbol: SymbolBrief,
    session: z.string(),
    interval: z.number().int(),
    bars: z.number().int(),
    classification: z.enum(["washout", "distribution", "strong", "neutral"]),
    closePosition: z.number(),
    tailVolumeShare: z.number().nullable(),
    high: z.number(),
    low: z.number(),
    close: z.number(),
    support: z.number().nullable(),
    supportSource: z.enum(["trading_range", "previous_low", "none"]),
    supportBreached: z.boolean(),
    supportReclaimed: z.boolean(),
    reasons: z.array(z.string()),
    intraday: z.object({
      vwap: z.number(),
      vsVwapPct: z.number(),
      strength: z.number(),
      reading: z.string(),
    }),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
