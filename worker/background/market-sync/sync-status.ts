/**
 * The sync status a person or program reads (`GET /api/market/sync`, the reading room's status line,
 * and the coverage statement screening results carry): the latest and last completed runs, coverage
 * of the listed universe as of the last completed run, failures, and stored bytes per symbol.
 */
import type { SyncCoverage, SyncRunView, SyncStatus } from "../../contracts/market-sync";
import type { SyncRun, SyncStore } from "../../ports/market-sync";

/** Failures the status lists (the total is always given). */
export const STATUS_FAILURES = 50;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A stored run as the status shows it. */
export function runView(r: SyncRun): SyncRunView {
  return {
    id: r.id,
    market: r.market,
    status: r.status,
    asOf: r.asOf,
    universe: r.universe,
    delisted: r.delisted,
    batchesTotal: r.batchesTotal,
    batchesDone: r.batchesDone,
    appended: r.appended,
    fetched: r.fetched,
    skipped: r.skipped,
    failed: r.failed,
    requests: r.requests,
    error: r.error,
    startedAt: iso(r.startedAt) ?? "",
    finishedAt: iso(r.finishedAt),
    durationMs: r.finishedAt === null ? null : r.finishedAt - r.startedAt,
  };
}

/** Coverage of a market's synced store, or null when no sync has completed (never synced). */
export async function syncCoverage(store: SyncStore, market: "CN" | "US"): Promise<SyncCoverage | null> {
  const done = await store.lastCompletedRun(market);
  if (!done) return null;
  return store.coverage(market, done.asOf);
}

/** The whole status. */
export async function syncStatus(
  store: SyncStore,
  mode: "offline" | "live",
  market: "CN" | "US" = "CN",
): Promise<SyncStatus> {
  const [latest, lastCompleted, failures, storage] = await Promise.all([
    store.latestRun(market),
    store.lastCompletedRun(market),
    store.failures(STATUS_FAILURES, market),
    store.storage(market),
  ]);
  const coverage = lastCompleted ? await store.coverage(market, lastCompleted.asOf) : null;
  return {
    mode,
    enabled: mode === "live",
    latest: latest ? runView(latest) : null,
    lastCompleted: lastCompleted ? runView(lastCompleted) : null,
    coverage,
    failures: failures.list,
    failuresTotal: failures.total,
    storage:
      storage.symbols === 0
        ? null
        : {
            symbols: storage.symbols,
            bytes: storage.bytes,
            bytesPerSymbol: Math.round(storage.bytes / storage.symbols),
          },
  };
}
