/** Handler of `market_regime`: the regime of the chosen (or active) market with its data source. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { marketRegimeSpec } from "../specs/market-regime";
import { defaultRegimeMarket, readRegime } from "./read-regime";

/** Reads the regime through the MarketData port. */
export const marketRegimeHandler: ToolHandler<typeof marketRegimeSpec> = async (input, deps) => {
  const r = await readRegime(deps.market, input.market ?? defaultRegimeMarket(deps.market));
  if (!r.ok) return r;
  return ok({ ...r.value.reading, source: r.value.source });
};
