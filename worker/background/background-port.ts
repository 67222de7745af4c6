/**
 * The `BackgroundTasks` port over the task store and the queue (application): `submit` records the
 * task (deduplicated by idempotency key, limited per owner) and sends one `task.run` message;
 * `history` reads the stored runs. Wired from bindings in coordinator/background-wiring.ts; used by
 * the tools (through the session DO), the webhook route and the cron.
 */
import type { HistoryQuery, HistoryResult, RecommendationRow } from "../contracts/history";
import { formatId } from "../lib/ids";
import { ok } from "../lib/result";
import type { BackgroundSubmission, BackgroundTasks } from "../ports/background";
import type { MarketData } from "../ports/market-data";
import type { RateLimiter } from "../ports/rate-limiter";
import type { HistoryReader } from "../ports/history-store";
import type { TaskWriter } from "../ports/task-store";
import type { BackgroundQueue, RunTaskMessage } from "./task-message";

/** Prefix of task ids. */
export const TASK_PREFIX = "task_";

/** What the port needs. */
export interface BackgroundPortDeps {
  tasks: TaskWriter;
  history: HistoryReader;
  queue: BackgroundQueue;
  market: MarketData;
  now: () => number;
  random?: (bytes: Uint8Array) => Uint8Array;
  /** Per-owner task limit (the `tasks` bucket); none for cron and webhook runs. */
  limiter?: RateLimiter;
}

async function withPrices(market: MarketData, rows: RecommendationRow[]): Promise<RecommendationRow[]> {
  const prices = new Map<string, number | null>();
  for (const code of new Set(rows.map((r) => r.code))) {
    const bars = await market.dailyBars(code, { days: 1, kind: "stock" });
    prices.set(code, bars.ok ? (bars.value.bars.at(-1)?.close ?? null) : null);
  }
  return rows.map((r) => {
    const p = prices.get(r.code) ?? null;
    return {
      ...r,
      current_price: p,
      pnl_pct: p === null ? null : Math.round((p / r.recommend_price - 1) * 10000) / 100,
    };
  });
}

/** Creates the port. */
export function createBackgroundPort(d: BackgroundPortDeps): BackgroundTasks {
  const random = d.random ?? ((b: Uint8Array) => crypto.getRandomValues(b));
  return {
    async submit(job: BackgroundSubmission) {
      if (d.limiter) {
        const allowed = await d.limiter.take("tasks", job.ownerId);
        if (!allowed.ok) return allowed;
      }
      const id = formatId(random(new Uint8Array(16)), TASK_PREFIX);
      const { record, created } = await d.tasks.create({
        id,
        kind: job.kind,
        ownerId: job.ownerId,
        sessionId: job.sessionId,
        input: job.input,
        ...(job.idempotencyKey ? { idempotencyKey: job.idempotencyKey } : {}),
        now: d.now(),
      });
      if (!created) return ok({ task: record.view, created });
      const message: RunTaskMessage = { kind: "task.run", taskId: id };
      try {
        await d.queue.send(message);
      } catch (error) {
        const why = `could not queue the task: ${error instanceof Error ? error.message : String(error)}`;
        await d.tasks.transition(id, ["queued"], { status: "failed", error: why }, d.now());
        throw error;
      }
      return ok({ task: record.view, created });
    },

    async history(ownerId: string, q: HistoryQuery): Promise<HistoryResult> {
      if (q.source === "signal") {
        const { rows, counts } = await d.history.signals(ownerId, {
          ...(q.status ? { status: q.status } : {}),
          ...(q.run_date ? { runDate: q.run_date } : {}),
          limit: Math.min(q.limit, 100),
        });
        return { source: "signal", rows, status_counts: counts, message: `${rows.length} signal(s)` };
      }
      if (q.source === "recommendation") {
        const rows = await d.history.recommendations(ownerId, {
          ...(q.run_date ? { runDate: q.run_date } : {}),
          limit: Math.min(q.limit, 50),
        });
        return {
          source: "recommendation",
          rows: await withPrices(d.market, rows),
          message: `${rows.length} recommendation(s)`,
        };
      }
      return {
        source: "tail_buy",
        rows: [],
        message: "no tail-buy records: the 14:00 tail-buy job is not part of this build",
      };
    },
  };
}
