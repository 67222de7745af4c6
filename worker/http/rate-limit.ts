/**
 * Per-user rate-limit middleware for the HTTP edge (turns: `POST /api/sessions/:id/messages`).
 * Over the limit answers 429 `rate_limited` with `Retry-After`; nothing else runs.
 */
import { createMiddleware } from "hono/factory";
import { AppError } from "../lib/app-error";
import type { RateBucket } from "../ports/rate-limiter";
import { createDb } from "../storage/db";
import { D1RateLimiter } from "../storage/rate-limit-repo";
import type { AppEnv } from "./app-env";

/** The limiter for a request's settings. */
export function rateLimiterFor(db: D1Database, limits: { turnsPerHour: number; tasksPerHour: number }): D1RateLimiter {
  return new D1RateLimiter(createDb(db), { turns: limits.turnsPerHour, tasks: limits.tasksPerHour });
}

/** Takes one unit of `bucket` for the caller, or answers 429. */
export function rateLimit(bucket: RateBucket) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const r = await rateLimiterFor(c.env.DB, c.var.config.rateLimits).take(bucket, c.var.userId);
    if (!r.ok) {
      const retry = Number(r.error.details?.["retryAfterS"] ?? 60);
      c.header("retry-after", String(retry));
      throw new AppError("rate_limited", 429, r.error.message, { details: { retryAfterS: retry } });
    }
    await next();
  });
}
