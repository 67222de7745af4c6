/** `market_regime`: the market's regime from its main index and breadth. */
import { z } from "zod";
import { defineToolSpec } from "./define";
import { MarketSource } from "./market-source";

/** Breadth of a market on its latest day. */
export const Breadth = z.object({
  date: z.string().nullable(),
  symbols: z.number().int(),
  aboveMa20Pct: z.number().nullable(),
  upPct: z.number().nullable(),
  downPct: z.number().nullable(),
  medianChangePct: z.number().nullable(),
});
export type Breadth = z.infer<typeof Breadth>;

/** Regime result. */
export const RegimeReading = z.object({
  state: z.enum(["BULL", "NEUTRAL", "CAUTION", "RISK_OFF", "CRASH", "REPAIR", "REPAIR_CONFIRMED"]),
  structure: z.enum(["BULL", "BEAR", "TRANSITION"]),
  blocksNewEntries: z.boolean(),
  reasons: z.array(z.string()),
  index: z.object({ id: z.string(), name: z.string(), close: z.number(), date: z.string() }),
  breadth: Breadth.nullable(),
});
export type RegimeReading = z.infer<typeof RegimeReading>;

/** The `market_regime` tool. */
export const marketRegimeSpec = defineToolSpec({
  name: "market_regime",
  title: { zh: "市场环境", en: "Market regime" },
  description:
    "Market regime (BULL / NEUTRAL / CAUTION / RISK_OFF / CRASH / REPAIR…) from the main index's MA50/MA200 structure, the small-cap index and breadth (% above MA20, up ratio). RISK_OFF and CRASH block new entries. market: cn (real A-shares, live data), sim (simulated market), us (S&P 500); default follows the active data.",
  input: z.object({ market: z.enum(["cn", "sim", "us"]).optional() }),
  output: RegimeReading.extend({ source: MarketSource }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
