/**
 * `GET /api/usage?days=N`: the caller's model usage and cost per day, model and purpose, with
 * totals (all purposes; turns counted once) and totals per purpose.
 */
import { Hono } from "hono";
import { z } from "zod";
import { queryParams } from "../http/params";
import type { AppEnv } from "../http/app-env";
import type { UsageFigures } from "../contracts/api";

const Query = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) });

/** Usage routes, mounted at /api/usage. */
export const usageRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { days } = queryParams(Query, c.req.query());
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await c.var.deps.usage.since(c.var.userId, from);
  const sum = (list: typeof rows, turnsOnly: boolean): UsageFigures =>
    list.reduce(
      (t, r) => ({
        turns: t.turns + (turnsOnly && r.purpose !== "turn" ? 0 : r.turns),
        inputTokens: t.inputTokens + r.inputTokens,
        outputTokens: t.outputTokens + r.outputTokens,
        cacheReadTokens: t.cacheReadTokens + r.cacheReadTokens,
        cacheWriteTokens: t.cacheWriteTokens + r.cacheWriteTokens,
        costUsd: Math.round((t.costUsd + r.costUsd) * 1_000_000) / 1_000_000,
      }),
      { turns: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    );
  const byPurpose: Partial<Record<string, UsageFigures>> = {};
  for (const purpose of new Set(rows.map((r) => r.purpose)))
    byPurpose[purpose] = sum(
      rows.filter((r) => r.purpose === purpose),
      false,
    );
  return c.json({ days, from, totals: sum(rows, true), byPurpose, rows });
});
