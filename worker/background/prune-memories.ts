/**
 * Daily memory pruning (Cron Trigger `MEMORY_PRUNING_CRON`): caps per type and the 90-day rule over
 * every owner in two set-based statements — the same rules that run after each extraction, here
 * for people who stopped chatting. Idempotent: a second run removes nothing.
 */
import type { Logger } from "../lib/log";
import { memoryStoreOf } from "../session/session-memory";

/** The cron expression of the daily pruning (03:20 Beijing time); listed in wrangler.toml `[triggers]`. */
export const MEMORY_PRUNING_CRON = "20 19 * * *";

/** Prunes everyone's memories; returns how many were removed. Failures throw (the cron run fails visibly). */
export async function pruneMemories(input: { d1: D1Database; now: number; log: Logger }): Promise<number> {
  const removed = await memoryStoreOf(input.d1).prune({ now: input.now });
  input.log.info("memory_pruned", { removed });
  return removed;
}
