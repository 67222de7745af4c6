/**
 * `POST /api/analyze`: the Wyckoff engine on the caller's own bars (a user's CSV turned into JSON).
 * Too many bars → 413; malformed, unsorted, duplicate-date, non-positive-price or too-short input →
 * 400 naming the first problem; an engine `insufficient_data` answer → 422. Nothing is stored.
 */
import { Hono } from "hono";
import { z } from "zod";
import { AnalyzeRequest, MAX_ANALYZE_BARS } from "../contracts/analysis";
import { formatIssues, issuesInChinese } from "../contracts/errors";
import { analyze } from "../engine/analyze";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { AppError, toAppError } from "../lib/app-error";

/** First pass: only the outer shape, so the bar count can be checked (413) before bars are validated. */
const AnalyzeEnvelope = z.looseObject({
  bars: z.array(z.unknown(), "bars: must be an array of bars"),
  benchmark: z.array(z.unknown(), "benchmark: must be an array of bars").optional(),
});

function tooLarge(field: string, n: number): AppError {
  return new AppError(
    "payload_too_large",
    413,
    `${field}: too many bars (${n}); at most ${MAX_ANALYZE_BARS} are accepted`,
    { details: { field, bars: n, maximum: MAX_ANALYZE_BARS } },
  );
}

/** Analyze routes, mounted at /api/analyze. */
export const analyzeRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const raw = await readJson(c, AnalyzeEnvelope);
  if (raw.bars.length > MAX_ANALYZE_BARS) throw tooLarge("bars", raw.bars.length);
  if (raw.benchmark && raw.benchmark.length > MAX_ANALYZE_BARS) throw tooLarge("benchmark", raw.benchmark.length);
  const parsed = AnalyzeRequest.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => formatIssues([i], { root: "(body)" }));
    const zh = issuesInChinese(AnalyzeRequest, raw, parsed.error.issues).slice(0, 1);
    const en = issues[0] ?? "invalid body";
    const messages = { en, zh: zh.length > 0 ? formatIssues(zh, { root: "(body)", lang: "zh" }) : "请求体无效" };
    throw new AppError("invalid_input", 400, en, { details: { issues, messages } });
  }
  const body = parsed.data;
  const result = analyze(body.bars, {
    ...(body.symbol === undefined ? {} : { symbol: body.symbol }),
    ...(body.market === undefined ? {} : { market: body.market }),
    ...(body.benchmark === undefined ? {} : { benchmark: body.benchmark }),
  });
  if (!result.ok) throw toAppError(result.error);
  c.var.log.info("analyze", { bars: body.bars.length, phase: result.value.phase.name });
  return c.json(result.value);
});
