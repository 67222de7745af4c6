/** `get_market_history`: an index's recent daily history with summary statistics. */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { MarketSource } from "./market-source";
import { PriceRow } from "./analyze-stock";

/** Summary statistics of an index window. */
export const HistorySummary = z.object({
  latestDate: z.string(),
  latestClose: z.number(),
  latestPctChg: z.number().nullable(),
  periodReturnPct: z.number(),
  recent20dReturnPct: z.number().nullable(),
  latestVolumeRatio20d: z.number().nullable(),
  recent20dVolumeVsPrior: z.number().nullable(),
  maxDrawdownPct: z.number(),
  upDays: z.number().int(),
  downDays: z.number().int(),
  priceUpVolumeUpDays: z.number().int(),
  priceDownVolumeUpDays: z.number().int(),
});
export type HistorySummary = z.infer<typeof HistorySummary>;

/** The `get_market_history` tool. */
export const getMarketHistorySpec = defineToolSpec({
  name: "get_market_history",
  title: { zh: "指数历史", en: "Index history" },
  description:
    "Daily history of a main index with summary statistics (period and 20-day return, max drawdown, up/down days, volume vs price days). index: sse, csi300, szse, chinext, sse50, csi500 (or Chinese names), spx, or a simulated index SIM.IDX1/SIM.IDX2; default is the main index of the active data. days ≤ 320.",
  input: z.object({
    index: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .describe("sse | csi300 | szse | chinext | sse50 | csi500 | 上证指数 … | spx | SIM.IDX1"),
    days: z.number().int().min(5).max(320).default(100),
  }),
  output: z.object({
    index: z.object({ key: z.string(), symbol: z.string(), name: z.string() }),
    requestedDays: z.number().int(),
    returnedDays: z.number().int(),
    summary: HistorySummary,
    rows: z.array(PriceRow),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
