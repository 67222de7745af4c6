/**
 * Market routes: `GET /api/market/search?q=` (universe + providers) and
 * `GET /api/market/bars/:symbol?days=N` (daily bars with provenance plus the engine's analysis, for
 * charts). Bad query values answer 400 naming the field; unknown symbols 404; ambiguous names 400
 * with candidates; providers down with nothing cached 502. Never a 500 for client input.
 */
import { Hono, type Context } from "hono";
import { SymbolParam } from "../contracts/params";
import { issuesInChinese } from "../contracts/errors";
import { pathParam } from "../http/params";
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
});

function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join(".") || "query";
  const message = issue?.message.includes(":") ? issue.message : `${field}: ${issue?.message ?? "invalid"}`;
  const zhIssue = issuesInChinese(schema, query, parsed.error.issues)[0]?.message ?? "无效";
  const zh = /[:：]/.test(zhIssue) ? zhIssue : `${field}：${zhIssue}`;
  throw new AppError("invalid_input", 400, message, { details: { field, messages: { en: message, zh } } });
}

/** Market routes, mounted at /api/market. */
export const marketRoutes = new Hono<AppEnv>()
  .get("/search", async (c) => {
    const q = parseQuery(SearchQuery, c.req.query());
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
  const q = parseQuery(BarsQuery, c.req.query());
  const market = c.var.deps.market;
  // The analysis reads ANALYSIS_BARS of history (and the benchmark) whatever the chart shows.
  const want = Math.max(q.days, ANALYSIS_BARS);
  const res = await market.dailyBars(symbol, q.kind ? { days: want, kind: q.kind } : { days: want });
  if (!res.ok) throw toAppError(res.error);
  const { symbol: info, provenance } = res.value;
  const bars = res.value.bars.slice(-q.days);
  const analysis = await analyzeSymbol(market, info, res.value.bars);
  return analysis.ok
    ? { symbol: info, bars, provenance, analysis: analysis.value }
    : { symbol: info, bars, provenance, analysis: null, analysisNote: analysis.error.message };
}
