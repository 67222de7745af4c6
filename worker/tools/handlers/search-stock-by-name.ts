/** Handler of `search_stock_by_name`: universe (and live providers') matches; the top 3 with their latest close. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { searchStockByNameSpec } from "../specs/search-stock-by-name";
import { brief, pctChange } from "../pure/market-stats";

/** Searches through the MarketData port. */
export const searchStockByNameHandler: ToolHandler<typeof searchStockByNameSpec> = async (input, deps) => {
  const r = await deps.market.search(input.keyword, 10);
  if (!r.ok) return r;
  const results = [];
  for (const [i, s] of r.value.results.entries()) {
    let latestClose: number | null = null;
    let changePct: number | null = null;
    let latestDate: string | null = null;
    if (i < 3) {
      const bars = await deps.market.dailyBars(s.id, { days: 2, kind: s.kind });
      if (bars.ok) {
        const [prev, last] = bars.value.bars.length >= 2 ? bars.value.bars.slice(-2) : [undefined, bars.value.bars[0]];
        latestClose = last?.close ?? null;
        latestDate = last?.date ?? null;
        changePct = prev && last ? pctChange(prev.close, last.close) : null;
      }
    }
    results.push({ ...brief(s), latestClose, changePct, latestDate });
  }
  return ok({ query: r.value.query, count: results.length, results, source: r.value.provenance });
};
