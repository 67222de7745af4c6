/** `get_market_overview`: main indices, regime and breadth in one call. */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { MarketSource } from "./market-source";
import { Breadth, RegimeReading } from "./market-regime";

/** One index line of the overview. */
export const IndexQuote = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  close: z.number(),
  pctChg: z.number().nullable(),
  volume: z.number(),
  amount: z.number().nullable(),
  simulated: z.boolean(),
  source: z.string(),
});

/** The `get_market_overview` tool. */
export const getMarketOverviewSpec = defineToolSpec({
  name: "get_market_overview",
  title: { zh: "大盘概览", en: "Market overview" },
  description:
    "Today's picture: main indices (上证, 深证成指, 创业板指, 上证50, 中证500 live; the simulated indices and S&P 500 offline) with close and change %, the market regime, and breadth (% above MA20, up/down ratio). Use for 'how is the market'. Relay unavailable indices and simulated/stale flags.",
  input: z.object({}),
  output: z.object({
    indices: z.array(IndexQuote),
    unavailable: z.array(z.object({ id: z.string(), reason: z.string() })),
    regime: RegimeReading.nullable(),
    breadth: Breadth.nullable(),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
