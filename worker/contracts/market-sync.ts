/**
 * The market sync's public shapes: the status `GET /api/market/sync` answers (and the reading room's
 * status line reads) and the coverage statement a screening or backtest over the synced store carries.
 */
import { z } from "zod";

/** One sync run as the status shows it. */
export const SyncRunView = z.object({
  id: z.string(),
  market: z.enum(["CN", "US"]),
  status: z.enum(["running", "done", "failed"]),
  /** The trading date the run brings the store up to. */
  asOf: z.string().nullable(),
  /** Symbols the list had (listed stocks), and those it marked delisted. */
  universe: z.number().int(),
  delisted: z.number().int(),
  batchesTotal: z.number().int(),
  batchesDone: z.number().int(),
  /** Symbols whose day came from the list pass, were refetched, were already current, failed. */
  appended: z.number().int(),
  fetched: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** Provider requests the run made (list pages plus K-line fetches). */
  requests: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type SyncRunView = z.infer<typeof SyncRunView>;

/** How much of a market the store holds, as of which date. */
export const SyncCoverage = z.object({
  market: z.enum(["CN", "US"]),
  /** Listed stocks in the synced universe. */
  universe: z.number().int(),
  /** Of those, stocks whose stored bars reach `asOf`. */
  current: z.number().int(),
  /** Of those, stocks with any stored bars. */
  withBars: z.number().int(),
  pct: z.number(),
  asOf: z.string().nullable(),
  /** One line a person reads: "5,102 of 5,317 symbols, bars as of 2026-11-30". */
  statement: z.string(),
});
export type SyncCoverage = z.infer<typeof SyncCoverage>;

/** A symbol whose last sync failed. */
export const SyncFailure = z.object({
  symbol: z.string(),
  reason: z.string(),
  failures: z.number().int(),
  at: z.string(),
});
export type SyncFailure = z.infer<typeof SyncFailure>;

/** `GET /api/market/sync`. */
export const SyncStatus = z.object({
  mode: z.enum(["offline", "live"]),
  /** False offline: the bundled market needs no sync. */
  enabled: z.boolean(),
  latest: SyncRunView.nullable(),
  lastCompleted: SyncRunView.nullable(),
  coverage: SyncCoverage.nullable(),
  failures: z.array(SyncFailure),
  failuresTotal: z.number().int(),
  /** Bytes of stored bars per symbol (average over the synced market) and in total. */
  storage: z.object({ symbols: z.number().int(), bytes: z.number().int(), bytesPerSymbol: z.number() }).nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** `GET /api/market/sync?market=cn|us` (default cn). */
export const SyncStatusQuery = z.object({ market: z.enum(["cn", "us"]).default("cn") });
/** `POST /api/admin/market-sync?market=cn|us|all` (default cn): which syncs to start. */
export const SyncStartQuery = z.object({ market: z.enum(["cn", "us", "all"]).default("cn") });

/** The coverage statement in words. */
export function coverageStatement(current: number, universe: number, asOf: string | null): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  return `${n(current)} of ${n(universe)} symbols, bars as of ${asOf ?? "—"}`;
}
