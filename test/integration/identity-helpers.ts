/**
 * Shared by the identity, share-link and portfolio workers tests: an app called with explicit
 * bindings (token mode with an admin secret), the error envelope, tokens, sessions and share links.
 */
import { createExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { D1PortfolioStore } from "../../worker/storage/portfolio-repo";
import { testEnv } from "./test-env";
import { call, postJson } from "./turn-helpers";
export const BASE = "http://wyckoff.test";
export const ADMIN = "admin-secret-for-the-identity-tests";
export const db = createDb(testEnv.DB);
export const portfolios = new D1PortfolioStore(db);

export type Env = Record<string, unknown>;
export const TOKEN_ENV: Env = { ...testEnv, AUTH_MODE: "token", ADMIN_TOKEN: ADMIN };
export const app = createApp();

export interface Init extends RequestInit {
  token?: string;
  json?: unknown;
}

/** Calls a fresh-per-file app with explicit bindings (like market.test.ts's MARKET_DATA=live). */
export async function req(path: string, init: Init = {}, env: Env = TOKEN_ENV, target = app): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return target.request(`${BASE}${path}`, { ...init, headers, body: body ?? null }, env, createExecutionContext());
}

export async function errorOf(
  res: Response,
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  return ((await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

export async function adminToken(user: string): Promise<{ id: string; token: string }> {
  const res = await req("/api/admin/tokens", { method: "POST", token: ADMIN, json: { user } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

export async function createSession(token: string, title: string): Promise<string> {
  const res = await req("/api/sessions", { method: "POST", token, json: { title } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export async function share(path: string, init: Init = {}): Promise<Response> {
  return call(path, init);
}

export async function newLocalSession(title: string): Promise<string> {
  return ((await (await postJson("/api/sessions", { title })).json()) as { id: string }).id;
}

export async function createShare(
  sessionId: string,
  body: unknown = {},
): Promise<{ id: string; token: string; url: string }> {
  const res = await postJson(`/api/sessions/${sessionId}/share`, body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string; url: string };
}

/** Seeds the universe (symbols) plus the series the portfolio diagnoses read. */
export async function seedPortfolioMarket(): Promise<void> {
  const bundle = buildOfflineBundle({ sp500Csv });
  const cache = new D1MarketCache(db);
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series)
    if (["SIM.0001", "SIM.0002", "SIM.IDX1"].includes(s.symbolId)) await cache.putSeries(s);
}
