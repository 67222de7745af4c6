/** Handler of `get_market_history`: an index window with summary statistics (aliases resolved by the port). */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { getMarketHistorySpec } from "../specs/get-market-history";
import { historySummary, priceRows } from "../pure/market-stats";

/** Reads the index history. */
export const getMarketHistoryHandler: ToolHandler<typeof getMarketHistorySpec> = async (input, deps) => {
  const key = input.index ?? (deps.market.mode === "offline" ? "SIM.IDX1" : "sse");
  const r = await deps.market.dailyBars(key, { days: input.days + 1, kind: "index" });
  if (!r.ok) return r;
  const { symbol, bars, provenance } = r.value;
  const window = bars.slice(-input.days);
  const before = bars.length > window.length ? bars[bars.length - window.length - 1] : undefined;
  if (window.length === 0)
    return { ok: false, error: { code: "insufficient_data", message: `no bars for ${symbol.id}` } };
  const notes = [...provenance.notes];
  if (window.length < input.days) notes.push(`only ${window.length} of ${input.days} requested days are available`);
  return ok({
    index: { key, symbol: symbol.id, name: symbol.name },
    requestedDays: input.days,
    returnedDays: window.length,
    summary: historySummary(window, before),
    rows: priceRows(window, before),
    source: { ...provenance, notes },
  });
};
