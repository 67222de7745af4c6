/**
 * The offline bundle (`MARKET_DATA=offline`): the real S&P 500 series, the real A-share day K-lines
 * (data/real/cn, see real-cn.ts) and the simulated A-share market, as symbol rows and cached series
 * ready for D1. Built the same way by `npm start` (through scripts/build-offline-data.mjs →
 * data/seed/*.sql) and by the tests (loaded into D1 directly).
 */
import type { SymbolInfo } from "../../contracts/market";
import type { CachedSeries } from "../../ports/market-data";
import { buildRealCn, type RealCnFile } from "./real-cn";
import { buildSimMarket, SIM_MARKET_DEFAULTS, type SimMarketOptions } from "./sim-market";
import { parseSp500Csv, SP500_SYMBOL } from "./sp500";

/** What cleaning did to one real series at build time. */
export interface CleaningReport {
  symbolId: string;
  rows: number;
  bars: number;
  dropped: number;
}

/** Symbols and series of the bundle. */
export interface OfflineBundle {
  symbols: SymbolInfo[];
  series: CachedSeries[];
  /** Real series: rows read, bars kept, invalid rows dropped. */
  cleaning: CleaningReport[];
}

/** `fetchedAt` stamped on bundled series: a fixed instant so the seed is byte-for-byte reproducible. */
export const BUNDLE_LOADED_AT = Date.parse("2026-07-01T00:00:00Z");

/** Builds the bundle from the vega-datasets CSV text and (optionally) the real A-share extract files. */
export function buildOfflineBundle(o: {
  sp500Csv: string;
  realCn?: readonly RealCnFile[];
  sim?: SimMarketOptions;
}): OfflineBundle {
  const sim = buildSimMarket(o.sim ?? SIM_MARKET_DEFAULTS);
  const real = buildRealCn(o.realCn ?? []);
  const stamp = { adjust: "none", origin: "offline", fetchedAt: BUNDLE_LOADED_AT } as const;
  const sp500 = parseSp500Csv(o.sp500Csv);
  const series: CachedSeries[] = [
    { symbolId: SP500_SYMBOL.id, bars: sp500, ...stamp, simulated: false },
    ...real.map((r) => ({ symbolId: r.symbol.id, bars: r.bars, ...stamp, simulated: false })),
  ];
  for (const [symbolId, bars] of sim.bars) series.push({ symbolId, bars, ...stamp, simulated: true });
  return {
    symbols: [SP500_SYMBOL, ...real.map((r) => r.symbol), ...sim.symbols],
    series,
    cleaning: real.map((r) => ({ symbolId: r.symbol.id, rows: r.rows, bars: r.bars.length, dropped: r.dropped })),
  };
}
