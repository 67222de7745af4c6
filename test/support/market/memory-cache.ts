/** An in-memory MarketCache for unit tests of the service and the tool handlers. */
import type { MarketCode, SecurityKind, SymbolInfo } from "../../../worker/contracts/market";
import { decodeBarColumns, encodeBarChunks } from "../../../worker/lib/bar-chunks";
import type { CachedSeries, MarketCache } from "../../../worker/ports/market-data";

/** The cache plus direct access to its maps. */
export interface MemoryCache extends MarketCache {
  symbols: Map<string, SymbolInfo>;
  series: Map<string, CachedSeries>;
}

/** Creates an empty (or pre-filled) cache. */
export function createMemoryCache(init: { symbols?: SymbolInfo[]; series?: CachedSeries[] } = {}): MemoryCache {
  const symbols = new Map((init.symbols ?? []).map((s) => [s.id, s]));
  const series = new Map((init.series ?? []).map((s) => [s.symbolId, s]));
  return {
    symbols,
    series,
    getSymbol: async (id) => symbols.get(id) ?? null,
    symbolsByCode: async (code) => [...symbols.values()].filter((s) => s.code === code),
    async searchSymbols(query, limit) {
      const q = query.trim();
      const up = q.toUpperCase();
      return [...symbols.values()]
        .filter(
          (s) =>
            s.code.startsWith(up) ||
            s.id.startsWith(up) ||
            s.name.includes(q) ||
            (s.pinyin !== "" && s.pinyin.startsWith(up)),
        )
        .slice(0, limit);
    },
    listSymbols: async (market: MarketCode, kind?: SecurityKind) =>
      [...symbols.values()].filter((s) => s.market === market && (!kind || s.kind === kind)),
    async upsertSymbols(list) {
      for (const s of list) symbols.set(s.id, { ...s, pinyin: s.pinyin || (symbols.get(s.id)?.pinyin ?? "") });
    },
    getSeries: async (id) => series.get(id) ?? null,
    getSeriesMany: async (ids) => ids.flatMap((id) => series.get(id) ?? []),
    getColumnsMany: async (ids, lastBars) =>
      ids.flatMap((id) => {
        const s = series.get(id);
        const texts = s ? encodeBarChunks(s.bars).map((c) => c.bars) : null;
        return texts ? [{ symbolId: id, columns: decodeBarColumns(texts, lastBars) }] : [];
      }),
    seriesOfMarket: async (market, _fromYear, lastBars) =>
      [...series.values()]
        .filter((s) => symbols.get(s.symbolId)?.market === market && symbols.get(s.symbolId)?.kind === "stock")
        .map((s) => (lastBars === undefined ? s : { ...s, bars: s.bars.slice(-lastBars) })),
    async putSeries(s) {
      series.set(s.symbolId, { ...s, bars: [...s.bars] });
    },
  };
}
