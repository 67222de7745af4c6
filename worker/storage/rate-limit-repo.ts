/**
 * D1RateLimiter: fixed-window counters for the per-user rate limits. One upsert per hit
 * (`INSERT … ON CONFLICT DO UPDATE … RETURNING count`) is atomic in D1's single-writer SQLite, so
 * requests landing on many isolates count correctly without a coordinating Durable Object; a
 * window's first hit prunes windows older than the previous one.
 */
import { lt, sql } from "drizzle-orm";
import { err, ok, type Result } from "../lib/result";
import type { RateBucket, RateLimiter } from "../ports/rate-limiter";
import type { Db } from "./db";
import { rateWindows } from "./schema";

/** Window length (ms): limits are per hour. */
export const RATE_WINDOW_MS = 60 * 60 * 1000;

/** Rate limits over D1. `limits` are per window; 0 = unlimited. */
export class D1RateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly limits: Record<RateBucket, number>,
    private readonly now: () => number = Date.now,
  ) {}

  async take(bucket: RateBucket, userId: string): Promise<Result<{ remaining: number }>> {
    const limit = this.limits[bucket];
    if (limit <= 0) return ok({ remaining: Number.POSITIVE_INFINITY });
    const now = this.now();
    const window = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    const rows = await this.db
      .insert(rateWindows)
      .values({ key: `${bucket}:${userId}`, window, count: 1 })
      .onConflictDoUpdate({
        target: [rateWindows.key, rateWindows.window],
        set: { count: sql`${rateWindows.count} + 1` },
      })
      .returning({ count: rateWindows.count });
    const count = rows[0]?.count ?? 1;
    if (count === 1) await this.db.delete(rateWindows).where(lt(rateWindows.window, window - RATE_WINDOW_MS));
    if (count > limit) {
      const retryAfterS = Math.max(1, Math.ceil((window + RATE_WINDOW_MS - now) / 1000));
      const what = bucket === "turns" ? "messages" : "background tasks";
      return err("rate_limited", `too many ${what}: at most ${limit} per hour; try again in ${retryAfterS} s`, {
        retryAfterS,
        limit,
      });
    }
    return ok({ remaining: limit - count });
  }
}
