/**
 * Wiring of the market sync (edge): the D1 store, the Eastmoney list feed and a MarketData instance
 * for history fetches, built from bindings; the queue handlers by message kind; the cron schedule.
 */
import { loadConfig } from "../../config";
import { consoleSink } from "../../console-sink";
import { newId } from "../../http/secrets";
import { createLogger } from "../../lib/log";
import { createDb } from "../../storage/db";
import { D1MarketCache } from "../../storage/market-cache-repo";
import { MarketSnapshots } from "../../storage/market-snapshot-repo";
import { D1SyncStore } from "../../storage/market-sync-repo";
import type { QueueHandler } from "../../background/queue-consumer";
import { PermanentError } from "../../background/queue-consumer";
import { createMarketData, providerPacingMs } from "../create-market-data";
import { createHttpClient } from "../http-client";
import { createEastmoneyUniverseFeed } from "./eastmoney-universe-feed";
import { usUniverseList } from "./us-universe";
import {
  runSyncBatch,
  settleDeadBatch,
  startSync,
  SyncBatchMessage,
  SyncStartMessage,
  type SyncDeps,
} from "../../background/market-sync/sync-jobs";

/** The sync queue's name (wrangler.toml). */
export const MARKET_SYNC_QUEUE = "wyckoff-edge-market-sync";
/** The Cron Trigger that starts the daily sync (15:10 Beijing time, weekdays; wrangler.toml). */
export const MARKET_SYNC_CRON = "10 7 * * 1-5";
/** The Cron Trigger of the US universe sync (22:30 UTC, weekdays: after the New York close; wrangler.toml). */
export const US_SYNC_CRON = "30 22 * * 1-5";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Builds the sync's deps from the bindings; `overrides` replace parts (tests). */
export function syncDeps(env: Env, overrides: Partial<SyncDeps> = {}): SyncDeps {
  const config = loadConfig(env);
  const http = createHttpClient({
    fetch: (...a) => fetch(...a),
    now: Date.now,
    random: Math.random,
    sleep,
    timeoutMs: 8000,
    retries: 1,
    minIntervalMs: providerPacingMs,
  });
  return {
    store: new D1SyncStore(env.DB),
    feed: createEastmoneyUniverseFeed({ baseURL: config.providers.eastmoney, http }),
    usList: () => usUniverseList(config.usUniverse),
    market: createMarketData({ db: env.DB, config: { ...config, marketData: "live" }, fetch: (...a) => fetch(...a) }),
    queue: env.MARKET_SYNC_QUEUE,
    now: Date.now,
    newId: () => newId("sync_"),
    sleep,
    log: createLogger(consoleSink, { area: "market-sync" }),
    snapshots: {
      rebuild: (market, runId) =>
        new D1MarketCache(createDb(env.DB), new MarketSnapshots(env.DB, env.SPILLS))
          .rebuildSnapshot(market, runId, Date.now())
          .then((b) => ({ published: b?.published ?? false, bytes: b?.bytes ?? 0, series: b?.series ?? 0 })),
    },
    ...overrides,
  };
}

/** Handlers by message kind. */
export function createSyncHandlers(d: SyncDeps): Readonly<Record<string, QueueHandler>> {
  return {
    "sync.start": async (body) => {
      const parsed = SyncStartMessage.safeParse(body);
      if (!parsed.success) throw new PermanentError("malformed sync.start message");
      await startSync(d, parsed.data.market);
    },
    "sync.batch": async (body, ctx) => {
      const parsed = SyncBatchMessage.safeParse(body);
      if (!parsed.success) throw new PermanentError("malformed sync.batch message");
      await runSyncBatch(d, parsed.data.runId, parsed.data.batch, ctx.attempts);
    },
  };
}

/** A dead letter that names a sync batch settles it (its symbols failed); answers false for others. */
export async function settleSyncDeadLetter(d: SyncDeps, body: unknown): Promise<boolean> {
  const wrapped = body && typeof body === "object" && "body" in body ? (body as { body: unknown }).body : body;
  const parsed = SyncBatchMessage.safeParse(wrapped);
  if (!parsed.success) return SyncStartMessage.safeParse(wrapped).success;
  const reason =
    body && typeof body === "object" && "reason" in body && typeof body.reason === "string"
      ? body.reason
      : "retries exhausted";
  await settleDeadBatch(d, parsed.data.runId, parsed.data.batch, reason);
  return true;
}
