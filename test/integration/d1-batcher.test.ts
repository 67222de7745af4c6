/** coalescingD1 over the real D1: batches started together leave as one round trip; failures stay each caller's own. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { coalescingD1 } from "../../worker/session/d1-batcher";
import { createDb } from "../../worker/storage/db";
import { D1RateLimiter, RATE_WINDOW_MS, takeBatched } from "../../worker/storage/rate-limit-repo";
import { rateWindows } from "../../worker/storage/schema";

/** env.DB, counting the batches that reach it. */
function counted(): { d1: D1Database; sent: number[] } {
  const sent: number[] = [];
  const d1 = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => (sent.push(statements.length), target.batch(statements));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { d1, sent };
}

const values = (rs: D1Result[]) => rs.map((r) => (r.results[0] as { v: unknown }).v);

describe("coalescingD1", () => {
  it("sends batches started together as one round trip, each caller getting its own results", async () => {
    const { d1, sent } = counted();
    const together = coalescingD1(d1);
    const q = (v: number) => d1.prepare("SELECT ?1 AS v").bind(v);
    const [a, b] = await Promise.all([together.batch([q(1), q(2), q(3)]), together.batch([q(4), q(5)])]);
    expect(sent).toEqual([5]);
    expect(values(a)).toEqual([1, 2, 3]);
    expect(values(b)).toEqual([4, 5]);
  });

  it("retries each caller alone when the merged batch fails: only the failing caller sees the error", async () => {
    const { d1, sent } = counted();
    const together = coalescingD1(d1);
    const [a, b] = await Promise.allSettled([
      together.batch([d1.prepare("SELECT 7 AS v")]),
      together.batch([d1.prepare("SELECT v FROM no_such_table")]),
    ]);
    expect(a.status === "fulfilled" && values(a.value)).toEqual([7]);
    expect(b.status).toBe("rejected");
    expect(sent).toEqual([2, 1, 1]);
  });

  it("sends a lone batch as is, later ones separately, and passes other methods through", async () => {
    const { d1, sent } = counted();
    const together = coalescingD1(d1);
    expect(values(await together.batch([d1.prepare("SELECT 1 AS v")]))).toEqual([1]);
    await expect(together.batch([d1.prepare("SELECT v FROM no_such_table")])).rejects.toThrow(/no such table/);
    expect(values(await together.batch([d1.prepare("SELECT 2 AS v")]))).toEqual([2]);
    expect(sent).toEqual([1, 1, 1]);
    expect(await together.prepare("SELECT 3 AS v").first("v")).toBe(3);
  });
});

describe("takeBatched (the turn rate limit inside the session DO's set-up round trip)", () => {
  it("shares the round trip with a read batch and counts, refuses and prunes exactly as D1RateLimiter.take", async () => {
    const { d1, sent } = counted();
    const together = coalescingD1(d1);
    const db = createDb(together);
    const hour = RATE_WINDOW_MS;
    const now = 1_000 * hour + 10 * 60_000; // ten minutes into a window
    // A window two hours back (pruned by this window's first hit) and the previous one (kept).
    await createDb(env.DB)
      .insert(rateWindows)
      .values([
        { key: "turns:batched-user", window: 998 * hour, count: 5 },
        { key: "turns:batched-user", window: 999 * hour, count: 5 },
      ]);
    const [first, read] = await Promise.all([
      takeBatched(db, "turns", "batched-user", 2, now),
      together.batch([d1.prepare("SELECT 1 AS v")]),
    ]);
    expect(sent).toEqual([2]);
    expect(values(read)).toEqual([1]);
    expect(first.result).toEqual({ ok: true, value: { remaining: 1 } });
    await first.prune?.();
    const windows = await createDb(env.DB).select().from(rateWindows).where(eq(rateWindows.key, "turns:batched-user"));
    expect(windows.map((w) => w.window).sort()).toEqual([999 * hour, 1_000 * hour]);

    const second = await takeBatched(db, "turns", "batched-user", 2, now);
    expect(second.result.ok).toBe(true);
    expect(second.prune).toBeUndefined();
    const third = await takeBatched(db, "turns", "batched-user", 2, now);
    const alone = await new D1RateLimiter(createDb(env.DB), { turns: 2, tasks: 0 }, () => now).take(
      "turns",
      "batched-user",
    );
    expect(third.result.ok).toBe(false);
    expect(alone.ok).toBe(false);
    if (!third.result.ok && !alone.ok) {
      expect(third.result.error.code).toBe("rate_limited");
      expect(third.result.error.details).toEqual({ retryAfterS: 50 * 60, limit: 2 });
      expect(third.result.error.message).toBe(alone.error.message);
    }
    // 0 = unlimited: nothing is sent.
    const before = sent.length;
    expect((await takeBatched(db, "turns", "batched-user", 0, now)).result.ok).toBe(true);
    expect(sent.length).toBe(before);
  });
});
