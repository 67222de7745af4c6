/** Port: per-user rate limits (fixed windows). The D1 adapter lives in storage/. */
import type { Result } from "../lib/result";

/** What is being limited. */
export type RateBucket = "turns" | "tasks";

/** Counts a user's actions per window and refuses those over the limit. */
export interface RateLimiter {
  /**
   * Takes one unit of `bucket` for `userId`. Over the limit: a `rate_limited` error whose details
   * carry `retryAfterS` (seconds until the window resets).
   */
  take(bucket: RateBucket, userId: string): Promise<Result<{ remaining: number }>>;
}
