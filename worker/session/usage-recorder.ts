/** Adds a finished turn's usage to the owner's daily totals in D1 (`GET /api/usage`). */
import type { Logger } from "../lib/log";
import type { TurnResult } from "../runtime/turn-types";
import type { Db } from "../storage/db";
import { D1UsageRepo } from "../storage/usage-repo";

/** Records the turn when it used any tokens; a failure is logged, never fatal. */
export async function recordUsage(
  db: Db,
  ownerId: string,
  now: number,
  result: TurnResult,
  log: Logger,
): Promise<void> {
  const u = result.usage;
  if (!result.modelId || (u.inputTokens === 0 && u.outputTokens === 0)) return;
  await new D1UsageRepo(db)
    .add({
      ownerId,
      day: new Date(now).toISOString().slice(0, 10),
      model: result.modelId,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadTokens: u.cachedInputTokens,
      cacheWriteTokens: u.cacheWriteTokens,
      costUsd: u.costUsd,
    })
    .catch((error: unknown) => log.error("usage_record_failed", { error }));
}
