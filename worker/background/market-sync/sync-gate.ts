/**
 * The live A-share universe is only as complete as the market sync made it: a screening, backtest or
 * strategy decision over `CN` states the sync's coverage ("5,102 of 5,317 symbols, bars as of …")
 * and refuses to run over a market that was never synced (it would read a handful of names someone
 * happened to analyze). The simulated market and US need no sync.
 */
import type { SyncCoverage } from "../../contracts/market-sync";
import { syncCoverage } from "./sync-status";
import type { SyncStore } from "../../ports/market-sync";
import type { Universe } from "../universe";

/** What a person reads when the live market was never synced. */
export const NEVER_SYNCED =
  "The live A-share market has never been synced, so there is no whole market to read. An operator starts the sync with POST /api/admin/market-sync (ADMIN_TOKEN); it also runs by itself after each close (15:10 Beijing time). GET /api/market/sync shows its progress and coverage.";

/** Coverage of the universe a job reads: `refused` when it needs a sync that never completed. */
export async function universeCoverage(
  sync: SyncStore | undefined,
  u: Pick<Universe, "code" | "simulated">,
): Promise<{ refused: string } | { coverage: SyncCoverage | null }> {
  if (u.simulated || u.code !== "CN" || !sync) return { coverage: null };
  const coverage = await syncCoverage(sync, "CN");
  return coverage ? { coverage } : { refused: NEVER_SYNCED };
}
