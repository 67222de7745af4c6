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
    const window = windowOf(now);
    const rows = await hitQuery(this.db, bucket, userId, window);
    const count = rows[0]?.count ?? 1;
    if (count === 1) await pruneQuery(this.db, window);
    return verdict(bucket, limit, count, window, now);
  }
}

function windowOf(now: number): number {
  return Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}

/** The hit: one atomic upsert returning the window's count. */
function hitQuery(db: Db, bucket: RateBucket, userId: string, window: number) {
  return db
    .insert(rateWindows)
    .values({ key: `${bucket}:${userId}`, window, count: 1 })
    .onConflictDoUpdate({
      target: [rateWindows.key, rateWindows.window],
      set: { count: sql`${rateWindows.count} + 1` },
    })
    .returning({ count: rateWindows.count });
}

/** A window's first hit drops the windows older than the previous one. */
function pruneQuery(db: Db, window: number) {
  return db.delete(rateWindows).where(lt(rateWindows.window, window - RATE_WINDOW_MS));
}

function verdict(
  bucket: RateBucket,
  limit: number,
  count: number,
  window: number,
  now: number,
): Result<{ remaining: number }> {
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

/**
 * The same take as `D1RateLimiter.take`, sent as a D1 batch so it can share a round trip with other
 * batches of the same tick (the session DO's turn set-up, through `coalescingD1`). The window's
 * first hit's prune comes back as `prune`, for the caller to run after answering.
 */
export async function takeBatched(
  db: Db,
  bucket: RateBucket,
  userId: string,
  limit: number,
  now: number,
): Promise<{ result: Result<{ remaining: number }>; prune?: () => Promise<unknown> }> {
  if (limit <= 0) return { result: ok({ remaining: Number.POSITIVE_INFINITY }) };
  const window = windowOf(now);
  const [rows] = await db.batch([hitQuery(db, bucket, userId, window)]);
  const count = rows[0]?.count ?? 1;
  const result = verdict(bucket, limit, count, window, now);
  return count === 1 ? { result, prune: () => pruneQuery(db, window) } : { result };
}
