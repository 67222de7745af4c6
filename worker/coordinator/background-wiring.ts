/**
 * Wiring of the background work (edge): the ports a queue handler, the coordinator, the cron and
 * the webhook use, built from bindings (the session's tools get theirs from tasks-port.ts). Tests
 * build the same deps with fakes for the queue producer.
 */
import type { BackgroundDeps } from "../background/background-deps";
import { SCREEN_BATCH_SIZE } from "../background/background-deps";
import type { TaskCoordinators } from "../background/coordinator-port";
import { loadConfig } from "../config";
import { consoleSink } from "../console-sink";
import { createLogger, type Logger } from "../lib/log";
import { createMarketData } from "../market/create-market-data";
import { createSessionNotifier } from "../session/session-notifier";
import { effectiveModels } from "../session/user-models";
import { createDb } from "../storage/db";
import { D1HistoryRepo } from "../storage/history-repo";
import { MarketSnapshots } from "../storage/market-snapshot-repo";
import { D1MarketCache } from "../storage/market-cache-repo";
import { D1SyncStore } from "../storage/market-sync-repo";
import { R2SpillStore } from "../storage/r2-spill-store";
import { D1TaskRepo } from "../storage/task-repo";
import { D1UsageRepo } from "../storage/usage-repo";

/** The coordinators port over the `TaskCoordinator` Durable Object namespace (one object per task id). */
export function coordinatorsOf(ns: Env["TaskCoordinator"]): TaskCoordinators {
  return { of: (taskId) => ns.get(ns.idFromName(taskId)) };
}

/** Builds the deps from the worker's bindings; `overrides` replace parts (tests). */
export function backgroundDeps(env: Env, overrides: Partial<BackgroundDeps> & { log?: Logger } = {}): BackgroundDeps {
  const db = createDb(env.DB);
  const config = loadConfig(env);
  return {
    tasks: new D1TaskRepo(db),
    history: new D1HistoryRepo(db),
    cache: new D1MarketCache(db, new MarketSnapshots(env.DB, env.SPILLS)),
    usage: new D1UsageRepo(db),
    market: createMarketData({ db: env.DB, snapshots: env.SPILLS, config, fetch: (...a) => fetch(...a) }),
    config,
    queue: env.BACKGROUND_QUEUE,
    coordinators: coordinatorsOf(env.TaskCoordinator),
    sessions: createSessionNotifier(env.SessionAgent),
    spills: new R2SpillStore(env.SPILLS),
    now: Date.now,
    log: createLogger(consoleSink, { area: "background" }),
    batchSize: SCREEN_BATCH_SIZE,
    sync: new D1SyncStore(env.DB),
    modelsFor: (ownerId, current) => effectiveModels(env.DB, { ...config, ...current }, ownerId),
    ...overrides,
  };
}
