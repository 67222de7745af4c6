/**
 * `GET /api/market/sync?market=cn|us`: the market sync's status (latest and last completed run,
 * coverage, failures, storage) of the A-share market (default) or the US universe. Starting a sync
 * is an operator's act: `POST /api/admin/market-sync` (routes/admin.ts).
 */
import { Hono } from "hono";
import { SyncStatusQuery, type SyncStatus } from "../contracts/market-sync";
import type { AppEnv } from "../http/app-env";
import { AppError } from "../lib/app-error";
import { syncStatus } from "../background/market-sync/sync-status";

/** Mounted at /api/market/sync (after identity). */
export const marketSyncRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const q = SyncStatusQuery.safeParse(c.req.query());
  if (!q.success) throw new AppError("invalid_input", 400, "market: cn or us", { details: { field: "market" } });
  const market = q.data.market === "us" ? "US" : "CN";
  return c.json((await syncStatus(c.var.deps.marketSync, c.var.config.marketData, market)) satisfies SyncStatus);
});
