/** `intraday_analysis`: the latest session's minute bars read as VWAP, position, trend and strength. */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { CodeInput, MarketSource, SymbolBrief } from "./market-source";

/** The `intraday_analysis` tool. */
export const intradayAnalysisSpec = defineToolSpec({
  name: "intraday_analysis",
  title: { zh: "分时分析", en: "Intraday analysis" },
  description:
    "Latest session's minute bars for one symbol: price vs VWAP, position in the day's range, short-term trend and momentum, volume concentration (opening 30 min, top 10% of minutes) and a strength score /100. For timing within the day; not a daily Wyckoff reading. interval 1 or 5 minutes.",
  input: z.object({ code: CodeInput, interval: z.union([z.literal(1), z.literal(5)]).default(1) }),
  output: z.object({
    symbol: SymbolBrief,
    session: z.string(),
    bars: z.number().int(),
    last: z.number(),
    open: z.number(),
    high: z.number(),
    low: z.number(),
    changeFromOpenPct: z.number(),
    vwap: z.number(),
    vsVwapPct: z.number(),
    aboveVwapShare: z.number(),
    dayRangePosition: z.number(),
    trend: z.enum(["up", "down", "flat"]),
    trendSlopePctPerHour: z.number(),
    momentum15Pct: z.number().nullable(),
    volume: z.object({
      total: z.number(),
      first30minShare: z.number(),
      last30minShare: z.number(),
      top10pctMinutesShare: z.number(),
    }),
    strength: z.number().min(0).max(100),
    reading: z.string(),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
