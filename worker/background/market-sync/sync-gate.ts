/**
 * The live markets are only as complete as the market sync made them: a screening, backtest or
 * strategy decision over live `CN` or `US` reads the synced universe (members of the last list, not
 * whichever symbols happen to be cached), states the sync's coverage ("5,102 of 5,317 symbols, bars
 * as of …") and refuses to run over a market that was never synced (it would read a handful of names
 * someone happened to analyze). The simulated market and the offline bundle need no sync.
 */
import type { SyncCoverage } from "../../contracts/market-sync";
import { syncCoverage } from "./sync-status";
import type { SyncStore } from "../../ports/market-sync";
import type { Universe } from "../universe";

/** What a person reads when the live A-share market was never synced. */
export const NEVER_SYNCED =
  "The live A-share market has never been synced, so there is no whole market to read. An operator starts the sync with POST /api/admin/market-sync (ADMIN_TOKEN); it also runs by itself after each close (15:10 Beijing time). GET /api/market/sync shows its progress and coverage.";

/** What a person reads when the live US universe was never synced. */
export const US_NEVER_SYNCED =
  "The live US universe has never been synced, so there is no US market to read. An operator starts the sync with POST /api/admin/market-sync?market=us (ADMIN_TOKEN); it also runs by itself after each US close (22:30 UTC). The list is the S&P 500 unless US_UNIVERSE names another; GET /api/market/sync?market=us shows its progress and coverage.";

/** A gate's answer: refused, or the coverage and the synced members (null: no sync needed). */
export type UniverseGate = { refused: string } | { coverage: SyncCoverage | null; members: ReadonlySet<string> | null };

/** Coverage of the universe a job reads: `refused` when it needs a sync that never completed. */
export async function universeCoverage(
  sync: SyncStore | undefined,
  u: Pick<Universe, "code" | "simulated" | "synced">,
): Promise<UniverseGate> {
  if (u.simulated || !u.synced || !sync || (u.code !== "CN" && u.code !== "US"))
    return { coverage: null, members: null };
  const coverage = await syncCoverage(sync, u.code);
  if (!coverage) return { refused: u.code === "US" ? US_NEVER_SYNCED : NEVER_SYNCED };
  return { coverage, members: await sync.members(u.code) };
}

/** The symbols of `symbols` the gate's universe holds (all of them when it needs no sync). */
export function inUniverse<T extends { id: string }>(
  gate: { members?: ReadonlySet<string> | null },
  symbols: readonly T[],
): T[] {
  const m = gate.members;
  return m ? symbols.filter((s) => m.has(s.id)) : [...symbols];
}
