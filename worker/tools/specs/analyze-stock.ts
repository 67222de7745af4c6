/** `analyze_stock`: Wyckoff diagnosis of one symbol, or its recent prices. */
import { z } from "zod";
import { Analysis, BarDate } from "../../contracts/analysis";
import { defineToolSpec } from "./define";
import { CodeInput, MarketSource, SymbolBrief } from "./market-source";

/** One price row of `price` mode. */
export const PriceRow = z.object({
  date: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  pctChg: z.number().nullable(),
});

/** The `analyze_stock` tool. */
export const analyzeStockSpec = defineToolSpec({
  name: "analyze_stock",
  title: { zh: "个股诊断", en: "Analyze stock" },
  description:
    "One symbol. mode=diagnose (default): Wyckoff phase, events, trading range, triggers, health 0-100, stops, targets, recent returns; give cost to get P&L and a position diagnosis. mode=price: the last `days` daily bars (≤250) with change %. Volume in shares. Always relay the source, as-of date and any simulated/stale flag.",
  input: z.object({
    code: CodeInput,
    mode: z.enum(["diagnose", "price"]).default("diagnose"),
    cost: z.number().nonnegative().default(0).describe("cost per share of a held position; 0 = none"),
    days: z.number().int().min(1).max(250).default(30).describe("price mode: bars to return"),
    asOf: BarDate.optional().describe(
      "read the market as it stood at the close of this date (YYYY-MM-DD), for history questions: only bars up to it are used (point in time); omit for the latest",
    ),
  }),
  output: z.object({
    mode: z.enum(["diagnose", "price"]),
    symbol: SymbolBrief,
    latestClose: z.number(),
    latestDate: z.string(),
    /** The date asked for (input asOf): the reading is of history, as of `latestDate` (its last bar on or before it). */
    asOf: z.string().optional(),
    /** price mode */
    data: z.array(PriceRow).optional(),
    /** diagnose mode */
    analysis: Analysis.nullable().optional(),
    analysisNote: z.string().optional(),
    position: z
      .object({
        cost: z.number(),
        pnlPct: z.number(),
        stop: z.number(),
        stopStatus: z.string(),
        grade: z.string(),
        danger: z.array(z.string()),
        warnings: z.array(z.string()),
        positives: z.array(z.string()),
      })
      .optional(),
    stats: z
      .object({
        ret10dPct: z.number().nullable(),
        ret20dPct: z.number().nullable(),
        fromYearHighPct: z.number().nullable(),
        fromYearLowPct: z.number().nullable(),
        range60dPct: z.number().nullable(),
        volRatio20to60: z.number().nullable(),
      })
      .optional(),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
