/**
 * Per-user rate limits at the HTTP edge. A turn (`POST /api/sessions/:id/messages`) takes its unit in
 * the session DO, in the same D1 round trip as the turn's set-up reads (`SessionAgent.startTurn`),
 * and before anything is written; a request the route refuses before reaching the DO (a malformed id
 * or body) takes it here first (`takeOrRefuse`), so a 429 wins over every other answer as before.
 * Over the limit answers 429 `rate_limited` with `Retry-After`; nothing else runs.
 */
import type { Context } from "hono";
import { AppError } from "../lib/app-error";
import type { RateBucket } from "../ports/rate-limiter";
import { createDb } from "../storage/db";
import { D1RateLimiter } from "../storage/rate-limit-repo";
import type { AppEnv } from "./app-env";

/** The limiter for a request's settings. */
export function rateLimiterFor(db: D1Database, limits: { turnsPerHour: number; tasksPerHour: number }): D1RateLimiter {
  return new D1RateLimiter(createDb(db), { turns: limits.turnsPerHour, tasks: limits.tasksPerHour });
}

/** The 429 answer (sets `Retry-After`; defaults to 60 s when the limiter gave none). */
export function rateLimited(c: Context<AppEnv>, message: string, retryAfterS: unknown): AppError {
  const retry = Number(retryAfterS ?? 60);
  c.header("retry-after", String(retry));
  return new AppError("rate_limited", 429, message, { details: { retryAfterS: retry } });
}

/** Takes one unit of `bucket` for the caller, or throws the 429. */
export async function takeOrRefuse(c: Context<AppEnv>, bucket: RateBucket): Promise<void> {
  const r = await rateLimiterFor(c.env.DB, c.var.config.rateLimits).take(bucket, c.var.userId);
  if (!r.ok) throw rateLimited(c, r.error.message, r.error.details?.["retryAfterS"]);
}
