/** `GET /api/health`: liveness plus which model and market-data mode are active (CONTRACTS.md). */
import { Hono } from "hono";
import pkg from "../../package.json";
import { OFFLINE_MODEL_ID } from "../config";
import type { Health } from "../contracts/api";
import type { AppEnv } from "../http/app-env";

/** Health routes. */
export const healthRoutes = new Hono<AppEnv>().get("/", (c) => {
  const { model, marketData } = c.var.config;
  const body: Health = {
    ok: true,
    version: pkg.version,
    model: model ? { id: model.model, offline: false } : { id: OFFLINE_MODEL_ID, offline: true },
    marketData,
  };
  return c.json(body);
});
