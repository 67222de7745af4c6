/**
 * Adds model usage to the owner's daily totals in D1 (`GET /api/usage`), one row per purpose and
 * model: a finished turn's rounds, its sub-agents and compaction summaries; a report; a memory pass.
 */
import type { Logger } from "../lib/log";
import type { TurnResult } from "../runtime/turn-types";
import type { RoundUsage } from "../runtime/stream-round";
import type { UsageEntry } from "../runtime/usage";
import type { Db } from "../storage/db";
import { D1UsageRepo } from "../storage/usage-repo";

function isEmpty(u: RoundUsage): boolean {
  return u.inputTokens === 0 && u.outputTokens === 0 && u.costUsd === 0;
}

/**
 * Records a finished turn: each purpose and model of its usage once. A `turn` row counts turns, so
 * the turn is counted once, on the row of the model that ended it (or its first `turn` row).
 */
export async function recordUsage(
  db: Db,
  ownerId: string,
  now: number,
  result: TurnResult,
  log: Logger,
): Promise<void> {
  if (!result.modelId || isEmpty(result.usage)) return;
  const entries: UsageEntry[] = result.byPurpose ?? [
    { purpose: "turn", modelId: result.modelId, calls: 1, usage: result.usage },
  ];
  const turnRows = entries.filter((e) => e.purpose === "turn" && !isEmpty(e.usage));
  const owner = turnRows.find((e) => e.modelId === result.modelId) ?? turnRows[0];
  await new D1UsageRepo(db).addEntries(
    ownerId,
    now,
    entries.map((e) => (e.purpose === "turn" ? { ...e, calls: e === owner ? 1 : 0 } : e)),
    log,
  );
}
