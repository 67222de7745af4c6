/**
 * Wiring of the `BackgroundTasks` port a session's tools use (edge): the task store, the queue and
 * market data from bindings, tasks limited per owner. Apart from background-wiring.ts, because the
 * session DO builds it and must not import the session notifier that wiring brings.
 */
import { createBackgroundPort } from "../background/background-port";
import { loadConfig } from "../config";
import { createMarketData } from "../market/create-market-data";
import type { BackgroundTasks } from "../ports/background";
import { createDb } from "../storage/db";
import { D1HistoryRepo } from "../storage/history-repo";
import { D1RateLimiter } from "../storage/rate-limit-repo";
import { D1TaskRepo } from "../storage/task-repo";

/** The port for a session's tools: bindings wired, tasks limited per owner (RATE_LIMIT_TASKS_PER_HOUR). */
export function backgroundPortFor(env: Env): BackgroundTasks {
  const db = createDb(env.DB);
  const config = loadConfig(env);
  const limits = config.rateLimits;
  return createBackgroundPort({
    tasks: new D1TaskRepo(db),
    history: new D1HistoryRepo(db),
    queue: env.BACKGROUND_QUEUE,
    market: createMarketData({ db: env.DB, config, fetch: (...a) => fetch(...a) }),
    now: Date.now,
    limiter: new D1RateLimiter(db, { turns: limits.turnsPerHour, tasks: limits.tasksPerHour }),
  });
}
