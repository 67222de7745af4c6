/**
 * Wiring of the background workers (edge): the adapters a queue handler, the coordinator and the
 * tools' port use, built from bindings. Tests build the same deps with fakes for the queue producer.
 */
import { effectiveModels, type EffectiveModels } from "../session/user-models";
import { loadConfig, type Config } from "../config";
import { consoleSink } from "../console-sink";
import { createLogger, type Logger } from "../lib/log";
import { createMarketData } from "../market/create-market-data";
import type { MarketData } from "../ports/market-data";
import { createSessionNotifier } from "../session/session-notifier";
import { createDb } from "../storage/db";
import { D1UsageRepo } from "../storage/usage-repo";
import { D1HistoryRepo } from "../storage/history-repo";
import { D1MarketCache } from "../storage/market-cache-repo";
import { D1TaskRepo } from "../storage/task-repo";
import { D1SyncStore } from "../storage/market-sync-repo";
import type { SyncStore } from "../ports/market-sync";
import type { CompletionDeps } from "./complete-task";
import type { BackgroundQueue } from "./task-message";

/** Symbols per fan-out batch of a screening. */
export const SCREEN_BATCH_SIZE = 100;

/** Everything a background handler may use. */
export interface BackgroundDeps extends CompletionDeps {
  tasks: D1TaskRepo;
  cache: D1MarketCache;
  market: MarketData;
  config: Config;
  queue: BackgroundQueue;
  coordinators: Env["TaskCoordinator"];
  batchSize: number;
  /** The owners' usage totals (model calls made by background work, e.g. the report writer). */
  usage: D1UsageRepo;
  /** The market sync's store (live coverage; see sync-gate.ts). */
  sync?: SyncStore;
  /** The model endpoints for a task's owner: their own (Settings → Model) or `config`'s default. */
  modelsFor(ownerId: string, config: Config): Promise<EffectiveModels>;
}

/** Builds the deps from the worker's bindings; `overrides` replace parts (tests). */
export function backgroundDeps(env: Env, overrides: Partial<BackgroundDeps> & { log?: Logger } = {}): BackgroundDeps {
  const db = createDb(env.DB);
  const config = loadConfig(env);
  return {
    tasks: new D1TaskRepo(db),
    history: new D1HistoryRepo(db),
    cache: new D1MarketCache(db),
    usage: new D1UsageRepo(db),
    market: createMarketData({ db: env.DB, config, fetch: (...a) => fetch(...a) }),
    config,
    queue: env.BACKGROUND_QUEUE,
    coordinators: env.TaskCoordinator,
    sessions: createSessionNotifier(env.SessionAgent),
    spills: env.SPILLS,
    now: Date.now,
    log: createLogger(consoleSink, { area: "background" }),
    batchSize: SCREEN_BATCH_SIZE,
    sync: new D1SyncStore(env.DB),
    modelsFor: (ownerId, current) => effectiveModels(env.DB, current, ownerId),
    ...overrides,
  };
}
