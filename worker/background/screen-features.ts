/**
 * The map phase over cached bars (application, over the `MarketCache` port): reads a list of
 * symbols' series in one query — decoded straight into columns, only the window's bars — and computes each one's funnel
 * features against the universe's index. Used by the fan-out batches and by in-process screenings
 * (strategy decisions).
 */
import type { Bar, Board } from "../contracts/analysis";
import { resolveParams } from "../engine/params";
import { alignBenchmark } from "../engine/relative-strength";
import { lastBarFeatures, type SymbolFeatures, type SymbolMeta } from "../engine/screen/symbol-features";
import { seriesArenaSize } from "../engine/series";
import type { MarketCache } from "../ports/market-data";
import type { Universe } from "./universe";

/** Bars the funnel reads per symbol (PARITY.md §2.4: a 320-day window). */
export const SCREEN_WINDOW = 320;
/**
 * Symbols decoded per store read: an in-process screening of a whole market reads it in parts, so
 * its columns (≈ 15 KB a symbol) never sit in memory all at once.
 */
const SYMBOLS_PER_READ = 500;
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

function sameDates(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true; // the chunk decoder shares one date list per calendar
  if (a.length !== b.length) return false;
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/** Features of `symbols` (one per symbol, in order; missing or short series are L1 rejections). */
export async function screenFeatures(
  cache: Pick<MarketCache, "getColumnsMany">,
  symbols: readonly BatchSymbol[],
  universe: Universe,
  index: readonly Bar[],
): Promise<SymbolFeatures[]> {
  if (symbols.length > SYMBOLS_PER_READ) {
    const out: SymbolFeatures[] = [];
    for (let i = 0; i < symbols.length; i += SYMBOLS_PER_READ)
      for (const f of await screenFeatures(cache, symbols.slice(i, i + SYMBOLS_PER_READ), universe, index)) out.push(f);
    return out;
  }
  const series = await cache.getColumnsMany(
    symbols.map((s) => s.id),
    SCREEN_WINDOW,
  );
  const byId = new Map(series.map((s) => [s.symbolId, s.columns]));
  const params = resolveParams();
  // Each series is dropped once its features are out, so one arena serves the whole batch.
  const arena = new Float64Array(seriesArenaSize(SCREEN_WINDOW));
  // Most series of a batch share one calendar: the index is aligned once per distinct date list.
  let alignedDates: readonly string[] = [];
  let aligned: Float64Array | null = null;
  const benchFor = (dates: readonly string[]): Float64Array => {
    if (aligned && sameDates(dates, alignedDates)) return aligned;
    alignedDates = dates;
    aligned = alignBenchmark(dates, index);
    return aligned;
  };
  return symbols.map((sym) => {
    const meta: SymbolMeta = { id: sym.id, code: sym.id, name: sym.name, industry: sym.industry, board: sym.board };
    const columns = byId.get(sym.id);
    const n = columns?.close.length ?? 0;
    if (!columns || n < MIN_BARS) return skipped(meta, n === 0 ? "no cached bars" : `only ${n} cached bars`);
    return lastBarFeatures(
      columns,
      meta,
      {
        market: universe.engineMarket,
        params,
        bench: benchFor(columns.date),
        triggerLookback: 5,
        breadthDays: 10,
        triggersOnlyForL2: false,
      },
      arena,
    );
  });
}
