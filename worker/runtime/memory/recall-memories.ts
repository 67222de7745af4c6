/**
 * The MemoryRecall adapter: stock codes, FTS bm25 and keyword overlap
 * blended and decayed, persona and preferences pinned, cut to 600 tokens and 10 memories. Hits
 * update `last_hit_at` after the answer (deferred). Store failures propagate: the runtime logs
 * them and the turn goes on without memories.
 */
import type { Logger } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { MemoryRecall, RecalledMemories } from "../../ports/memory-recall";
import type { MemoryStore } from "../../ports/memory-store";
import { buildRecallQuery } from "../../memory/fts-query";
import { memoryBlock, memoryLine } from "../../memory/memory-block";
import { PINNED_PREFERENCES, scoreCandidates, selectForRecall, type RecallCandidate } from "../../memory/score";
import { textTokens } from "../context/tokens";

/** FTS matches read per recall before ranking. */
export const RECALL_CANDIDATES = 40;

/** What the recall adapter needs. */
export interface MemoryRecallDeps {
  store: MemoryStore;
  now: Clock;
  log: Logger;
  /** Runs the `last_hit_at` update after the answer (the DO's `waitUntil`); awaited when absent. */
  defer?: (work: Promise<unknown>) => void;
}

/** Builds the recall adapter. */
export function createMemoryRecall(deps: MemoryRecallDeps): MemoryRecall {
  return {
    async recall({ userId, text }): Promise<RecalledMemories | null> {
      const query = buildRecallQuery(text);
      const rows = await deps.store.recallRows(userId, query.terms, {
        limit: RECALL_CANDIDATES,
        preferences: PINNED_PREFERENCES * 4,
      });
      const byId = new Map<string, RecallCandidate>();
      for (const m of rows.matched) byId.set(m.id, m);
      for (const m of rows.pinned) if (!byId.has(m.id)) byId.set(m.id, { ...m, bm25: null });
      const now = deps.now();
      const chosen = selectForRecall(scoreCandidates([...byId.values()], query, now), {
        format: memoryLine,
        tokens: textTokens,
      });
      if (chosen.length === 0) return null;
      const ids = chosen.map((m) => m.id);
      const touch = deps.store.touch(userId, ids, now);
      if (deps.defer) deps.defer(touch.catch((error: unknown) => deps.log.error("memory_touch_failed", { error })));
      else await touch;
      return { block: memoryBlock(chosen.map(memoryLine)), ids };
    },
  };
}
