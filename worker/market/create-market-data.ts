/**
 * Wiring: builds the MarketData port from settings and bindings (the D1 database and `fetch`).
 * One HTTP client per MarketData instance, so pacing and circuit breakers live as long as it does
 * (per request in routes, per Durable Object in sessions).
 */
import type { Config } from "../config";
import type { MarketData } from "../ports/market-data";
import { createDb } from "../storage/db";
import { MarketSnapshots } from "../storage/market-snapshot-repo";
import { D1MarketCache } from "../storage/market-cache-repo";
import { D1SyncedUniverse } from "../storage/market-sync-repo";
import { createEastmoneyProvider } from "./eastmoney-provider";
import { createHttpClient } from "./http-client";
import { createMarketDataService } from "./service/market-data-service";
import { createTencentProvider } from "./tencent-provider";
import { createYahooProvider } from "./yahoo-provider";

/** Minimum gap between requests to a real provider host (DOMAIN.md §2.10: ≤ 2 req/s for Eastmoney). */
export function providerPacingMs(host: string): number {
  if (host.endsWith("eastmoney.com")) return 500;
  if (host.endsWith("gtimg.cn")) return 200;
  if (host.endsWith("yahoo.com")) return 500;
  return 0;
}

/** Dependencies of the factory; `now`, `random` and `sleep` default to the platform's. */
export interface MarketDataWiring {
  db: D1Database;
  /** Where the whole-market snapshots live (regime breadth reads them); without it, the chunks only. */
  snapshots?: R2Bucket;
  config: Pick<Config, "marketData" | "providers">;
  fetch: typeof fetch;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

/** Builds the MarketData port. */
export function createMarketData(w: MarketDataWiring): MarketData {
  const now = w.now ?? (() => Date.now());
  const http = createHttpClient({
    fetch: w.fetch,
    now,
    random: w.random ?? Math.random,
    sleep: w.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    timeoutMs: w.timeoutMs ?? 8000,
    retries: 1,
    minIntervalMs: providerPacingMs,
  });
  const eastmoney = createEastmoneyProvider({ baseURL: w.config.providers.eastmoney, http });
  const tencent = createTencentProvider({ baseURL: w.config.providers.tencent, http });
  const yahoo = createYahooProvider({ baseURL: w.config.providers.yahoo, http });
  return createMarketDataService({
    mode: w.config.marketData,
    cache: new D1MarketCache(createDb(w.db), w.snapshots ? new MarketSnapshots(w.db, w.snapshots) : undefined),
    chains: { CN: [eastmoney, tencent, yahoo], US: [yahoo] },
    searchers: [eastmoney, tencent],
    now,
    ...(w.config.marketData === "live" ? { synced: new D1SyncedUniverse(w.db) } : {}),
  });
}
