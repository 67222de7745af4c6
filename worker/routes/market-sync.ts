/**
 * `GET /api/market/sync`: the market sync's status (latest and last completed run, coverage, failures,
 * storage). Starting a sync is an operator's act: `POST /api/admin/market-sync` (routes/admin.ts).
 */
import { Hono } from "hono";
import type { SyncStatus } from "../contracts/market-sync";
import type { AppEnv } from "../http/app-env";
import { syncStatus } from "../background/market-sync/sync-status";

/** Mounted at /api/market/sync (after identity). */
export const marketSyncRoutes = new Hono<AppEnv>().get("/", async (c) =>
  c.json((await syncStatus(c.var.deps.marketSync, c.var.config.marketData)) satisfies SyncStatus),
);
