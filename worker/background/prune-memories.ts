/**
 * Daily memory pruning (Cron Trigger `MEMORY_PRUNING_CRON`): caps per type and the 90-day rule over
 * every owner in two set-based statements — the same rules that run after each extraction, here
 * for people who stopped chatting. Idempotent: a second run removes nothing.
 */
import type { Logger } from "../lib/log";
import type { MemoryStore } from "../ports/memory-store";

/** The cron expression of the daily pruning (03:20 Beijing time); listed in wrangler.toml `[triggers]`. */
export const MEMORY_PRUNING_CRON = "20 19 * * *";

/** Memories indexed per statement batch when catching up on ones stored before the term index. */
const INDEX_BATCH = 200;

/**
 * Prunes everyone's memories, then indexes any stored before recall's term index existed (a no-op
 * once done); returns how many were removed. Failures throw (the cron run fails visibly).
 */
export async function pruneMemories(input: {
  store: Pick<MemoryStore, "prune" | "indexPending">;
  now: number;
  log: Logger;
}): Promise<number> {
  const store = input.store;
  const removed = await store.prune({ now: input.now });
  let indexed = 0;
  for (;;) {
    const n = await store.indexPending(INDEX_BATCH);
    indexed += n;
    if (n < INDEX_BATCH) break;
  }
  input.log.info("memory_pruned", { removed, indexed });
  return removed;
}
