/**
 * Pieces shared by the market tools' specs: the `source` block every market result carries (who
 * answered, as of when, simulated or stale) and a symbol's short form.
 */
import { z } from "zod";
import { Provenance } from "../../contracts/market";

/** Where a market result came from; `stale`/`simulated` must be relayed to the user. */
export const MarketSource = Provenance;
export type MarketSource = z.infer<typeof MarketSource>;

/** A symbol as tools report it. */
export const SymbolBrief = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  market: z.string(),
  kind: z.string(),
  board: z.string().nullable(),
  industry: z.string().nullable(),
  simulated: z.boolean(),
});
export type SymbolBrief = z.infer<typeof SymbolBrief>;

/** Stock code input: any common form. */
export const CodeInput = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe("code or name: 600519, sh600519, 600519.SS, 1.000001 (SSE index), AAPL, SIM.0001, 贵州茅台");
