/**
 * Shared by the market workers tests: calls through the worker (offline) or an app with
 * MARKET_DATA=live, the fake upstream's fixtures and recorded requests, and the offline bundle seed.
 */
import { exports } from "cloudflare:workers";
import { expect, inject } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import type { RealCnFile } from "../../worker/market/offline/real-cn";
import { REAL_CN_FILES } from "./real-cn-files";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import type { Fixture, RecordedUpstreamRequest } from "../support/fake-upstream/server";
import { testEnv } from "./test-env";
export const BASE = "http://wyckoff.test";
export const upstream = inject("upstreamUrl");
export const cache = new D1MarketCache(createDb(testEnv.DB));

export function call(path: string): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`));
}

/** The app with MARKET_DATA=live (same bindings otherwise). */
export function callLive(path: string): Promise<Response> {
  return Promise.resolve(createApp().request(`${BASE}${path}`, {}, { ...testEnv, MARKET_DATA: "live" }));
}

export async function fixtures(...list: Fixture[]): Promise<void> {
  const res = await fetch(`${upstream}/__fixtures`, { method: "POST", body: JSON.stringify(list) });
  expect(res.status).toBe(204);
}

export async function requests(pathPart: string): Promise<RecordedUpstreamRequest[]> {
  const all = (await (await fetch(`${upstream}/__requests`)).json()) as RecordedUpstreamRequest[];
  // Exact paths: the market-sync test serves its own market under a `/sync` prefix on the same upstream.
  return all.filter((r) => r.path === pathPart);
}

export async function errorOf(
  res: Response,
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  return ((await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

export const EM_KLINE = "/push2his/api/qt/stock/kline/get";
export const TX_KLINE = "/ifzq/appstock/app/fqkline/get";
/** Loads the offline bundle (simulated, S&P 500 and real CN files) into the market cache. */
export async function seedBundle(): Promise<void> {
  const realCn = REAL_CN_FILES.map((text) => JSON.parse(text) as RealCnFile);
  const bundle = buildOfflineBundle({ sp500Csv, realCn });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series) await cache.putSeries(s);
}
