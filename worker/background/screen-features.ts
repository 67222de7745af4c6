/**
 * The map phase over cached bars (application, over the `MarketCache` port): reads a list of
 * symbols' series in one query — decoded straight into columns, only the window's bars — and computes each one's funnel
 * features against the universe's index. Used by the fan-out batches and by in-process screenings
 * (strategy decisions).
 */
import type { Bar, Board } from "../contracts/analysis";
import { resolveParams } from "../engine/params";
import { alignBenchmark } from "../engine/relative-strength";
import { symbolFeatures, type SymbolFeatures, type SymbolMeta } from "../engine/screen/symbol-features";
import { buildSeriesFromColumns, seriesArenaSize } from "../engine/series";
import type { MarketCache } from "../ports/market-data";
import type { Universe } from "./universe";

/** Bars the funnel reads per symbol (PARITY.md §2.4: a 320-day window). */
export const SCREEN_WINDOW = 320;
/** Fewest bars a symbol needs to be screened at all. */
const MIN_BARS = 120;

/** A symbol as a batch message carries it. */
export interface BatchSymbol {
  id: string;
  name: string;
  industry: string | null;
  board: Board | null;
}

function skipped(meta: SymbolMeta, reason: string): SymbolFeatures {
  return {
    meta,
    asOf: "",
    close: 0,
    l1: { pass: false, reason },
    channels: [],
    l2Reason: "",
    r3: null,
    r5: null,
    r20: null,
    r50: null,
    r120: null,
    bias200: null,
    rs10: null,
    rs3: null,
    vol5to20: null,
    triggers: [],
    structuralStop: null,
    aboveMa20: [],
  };
}

/** Features of `symbols` (one per symbol, in order; missing or short series are L1 rejections). */
export async function screenFeatures(
  cache: Pick<MarketCache, "getColumnsMany">,
  symbols: readonly BatchSymbol[],
  universe: Universe,
  index: readonly Bar[],
): Promise<SymbolFeatures[]> {
  const series = await cache.getColumnsMany(
    symbols.map((s) => s.id),
    SCREEN_WINDOW,
  );
  const byId = new Map(series.map((s) => [s.symbolId, s.columns]));
  const params = resolveParams();
  // Each series is dropped once its features are out, so one arena serves the whole batch.
  const arena = new Float64Array(seriesArenaSize(SCREEN_WINDOW));
  return symbols.map((sym) => {
    const meta: SymbolMeta = { id: sym.id, code: sym.id, name: sym.name, industry: sym.industry, board: sym.board };
    const columns = byId.get(sym.id);
    const n = columns?.close.length ?? 0;
    if (!columns || n < MIN_BARS) return skipped(meta, n === 0 ? "no cached bars" : `only ${n} cached bars`);
    const s = buildSeriesFromColumns(columns, universe.engineMarket, params, arena);
    return symbolFeatures(
      s,
      s.n - 1,
      meta,
      {
        market: universe.engineMarket,
        params,
        bench: alignBenchmark(s.date, index),
        triggerLookback: 5,
        breadthDays: 10,
        triggersOnlyForL2: false,
      },
      columns.amount,
    );
  });
}
