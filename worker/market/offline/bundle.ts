/**
 * The offline bundle (`MARKET_DATA=offline`): the real S&P 500 series plus the simulated A-share
 * market, as symbol rows and cached series ready for D1. Built the same way by `npm start` (through
 * scripts/build-offline-data.mjs → data/seed/*.sql) and by the workers tests (loaded into D1 directly).
 */
import type { SymbolInfo } from "../../contracts/market";
import type { CachedSeries } from "../../ports/market-data";
import { buildSimMarket, SIM_MARKET_DEFAULTS, type SimMarketOptions } from "./sim-market";
import { parseSp500Csv, SP500_SYMBOL } from "./sp500";

/** Symbols and series of the bundle. */
export interface OfflineBundle {
  symbols: SymbolInfo[];
  series: CachedSeries[];
}

/** `fetchedAt` stamped on bundled series: a fixed instant so the seed is byte-for-byte reproducible. */
export const BUNDLE_LOADED_AT = Date.parse("2026-07-01T00:00:00Z");

/** Builds the bundle from the vega-datasets CSV text. */
export function buildOfflineBundle(o: { sp500Csv: string; sim?: SimMarketOptions }): OfflineBundle {
  const sim = buildSimMarket(o.sim ?? SIM_MARKET_DEFAULTS);
  const series: CachedSeries[] = [
    {
      symbolId: SP500_SYMBOL.id,
      bars: parseSp500Csv(o.sp500Csv),
      adjust: "none",
      origin: "offline",
      fetchedAt: BUNDLE_LOADED_AT,
      simulated: false,
    },
  ];
  for (const [symbolId, bars] of sim.bars)
    series.push({ symbolId, bars, adjust: "none", origin: "offline", fetchedAt: BUNDLE_LOADED_AT, simulated: true });
  return { symbols: [SP500_SYMBOL, ...sim.symbols], series };
}
