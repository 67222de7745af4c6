/**
 * Everything a background job may use, as ports (application ring): the task store, market data and
 * its cache, the queue producer, the coordinators, history, result storage, usage and the owner's
 * model endpoints. The edge builds them from bindings (coordinator/background-wiring.ts); tests
 * replace parts.
 */
import type { Logger } from "../lib/log";
import type { HistoryReader, HistoryWriter } from "../ports/history-store";
import type { MarketCache, MarketData } from "../ports/market-data";
import type { TaskWriter } from "../ports/task-store";
import type { ModelEndpointSettings } from "../runtime/model";
import type { ModelPrice, UsageEntry } from "../runtime/usage";
import type { CompletionDeps } from "./complete-task";
import type { TaskCoordinators } from "./coordinator-port";
import type { BackgroundQueue } from "./task-message";

/** Symbols per fan-out batch of a screening. */
export const SCREEN_BATCH_SIZE = 100;

/** The settings background jobs read. */
export interface BackgroundConfig {
  /** Which universe screenings and backtests read (offline: the simulated A-share market). */
  marketData: "offline" | "live";
  /** Prices per 1M tokens by model id (`*` = any other model). */
  prices: Readonly<Record<string, ModelPrice>>;
  /** The deployment's default model (`undefined`: the rule-based writer). */
  model: ModelEndpointSettings | undefined;
  fallbackModel: ModelEndpointSettings | undefined;
  /** The post-close daily screening's market, or off. */
  dailyScreening: "off" | "cn" | "us";
}

/** The model endpoints in effect for one owner. */
export interface OwnerModels {
  model: ModelEndpointSettings | undefined;
  fallbackModel: ModelEndpointSettings | undefined;
  /** Set when the owner's own settings exist but cannot be used: what to tell them. */
  problem?: string;
}

/** Adds model usage to an owner's totals. */
export interface UsageWriter {
  addEntries(ownerId: string, now: number, entries: readonly UsageEntry[], log: Logger): Promise<void>;
}

/** Everything a background handler may use. */
export interface BackgroundDeps extends CompletionDeps {
  tasks: TaskWriter;
  /** Written by completions, read by the `BackgroundTasks` port built over these deps. */
  history: HistoryWriter & HistoryReader;
  cache: MarketCache;
  market: MarketData;
  config: BackgroundConfig;
  queue: BackgroundQueue;
  coordinators: TaskCoordinators;
  batchSize: number;
  /** The owners' usage totals (model calls made by background work, e.g. the report writer). */
  usage: UsageWriter;
  /** The model endpoints for a task's owner: their own (Settings → Model) or `config`'s default. */
  modelsFor(ownerId: string, config: BackgroundConfig): Promise<OwnerModels>;
}
