/**
 * Market routes: `GET /api/market/search?q=` (universe + providers) and
 * `GET /api/market/bars/:symbol?days=N[&end=YYYY-MM-DD]` (daily bars with provenance plus the engine's
 * analysis, for charts; `end`: as the market stood at that close). Bad query values answer 400 naming the field; unknown symbols 404; ambiguous names 400
 * with candidates; providers down with nothing cached 502. Never a 500 for client input.
 */
import { Hono, type Context } from "hono";
import { BarDate } from "../contracts/analysis";
import { SymbolParam } from "../contracts/params";
import { pathParam, queryParams } from "../http/params";
import { z } from "zod";
import type { MarketBarsResponse, MarketSearchResponse } from "../contracts/market";
import type { AppEnv } from "../http/app-env";
import { AppError, toAppError } from "../lib/app-error";
import { analyzeSymbol, ANALYSIS_BARS } from "../tools/handlers/symbol-analysis";

/** Most bars a chart request may ask for. */
export const MAX_CHART_DAYS = 5000;

const SearchQuery = z.object({
  q: z.string({ error: "q: required" }).trim().min(1, "q: must not be empty").max(40, "q: at most 40 characters"),
  limit: z.coerce
    .number({ error: "limit: must be a number" })
    .int("limit: must be an integer")
    .min(1, "limit: at least 1")
    .max(50, "limit: at most 50")
    .default(10),
});

const BarsQuery = z.object({
  days: z.coerce
    .number({ error: "days: must be a number" })
    .int("days: must be an integer")
    .min(1, "days: at least 1")
    .max(MAX_CHART_DAYS, `days: at most ${MAX_CHART_DAYS}`)
    .default(250),
  kind: z.enum(["stock", "index"], { error: "kind: must be stock or index" }).optional(),
  end: z
    .string()
    .refine((v) => BarDate.safeParse(v).success, "end: must be a date, YYYY-MM-DD")
    .optional(),
});

/** Market routes, mounted at /api/market. */
export const marketRoutes = new Hono<AppEnv>()
  .get("/search", async (c) => {
    const q = queryParams(SearchQuery, c.req.query());
    const market = c.var.deps.market;
    const res = await market.search(q.q, q.limit);
    if (!res.ok) throw toAppError(res.error);
    return c.json(res.value satisfies MarketSearchResponse);
  })
  .get("/bars/:symbol", async (c) => c.json(await chartBars(c, pathParam(c, "symbol", SymbolParam))));

/** The `GET /api/market/bars/:symbol` answer (also served to share-link viewers for the charts they see). */
export async function chartBars(c: Context<AppEnv>, symbolParam: string): Promise<MarketBarsResponse> {
  const checked = SymbolParam.safeParse(symbolParam);
  if (!checked.success)
    throw new AppError("invalid_input", 400, `symbol: ${checked.error.issues[0]?.message ?? "invalid"}`, {
      details: { field: "symbol" },
    });
  const symbol = checked.data;
  const q = queryParams(BarsQuery, c.req.query());
  const market = c.var.deps.market;
  // The analysis reads ANALYSIS_BARS of history (and the benchmark) whatever the chart shows.
  const want = Math.max(q.days, ANALYSIS_BARS);
  const res = await market.dailyBars(symbol, {
    days: want,
    ...(q.kind ? { kind: q.kind } : {}),
    ...(q.end ? { end: q.end } : {}),
  });
  if (!res.ok) throw toAppError(res.error);
  const { symbol: info, provenance } = res.value;
  const bars = res.value.bars.slice(-q.days);
  const analysis = await analyzeSymbol(market, info, res.value.bars, { pointInTime: q.end !== undefined });
  return analysis.ok
    ? { symbol: info, bars, provenance, analysis: analysis.value }
    : { symbol: info, bars, provenance, analysis: null, analysisNote: analysis.error.message };
}
