/**
 * The MemoryFlush adapter: before compaction summarises the head of a conversation,
 * the stable preferences and decisions in its user messages are stored (keyword rules, no model
 * call, so compaction never waits on a second model). Sentences already remembered are exact
 * duplicates and are skipped by the store.
 */
import type { Logger } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { MemoryFlush } from "../../ports/memory-flush";
import type { MemoryStore } from "../../ports/memory-store";
import { extractFromUserTexts } from "../../memory/extract-rules";

/** Builds the flush adapter over the memory store. */
export function createMemoryFlush(deps: { store: MemoryStore; now: Clock; log: Logger }): MemoryFlush {
  return {
    async flushBeforeCompaction({ sessionId, userId, head }) {
      const texts = head.filter((m) => m.role === "user").map((m) => ({ id: "", text: m.text }));
      const drafts = extractFromUserTexts(sessionId, texts).map((d) => ({
        ...d,
        origin: "flush" as const,
        source: { sessionId, messageIds: [] },
      }));
      if (drafts.length === 0) return;
      const now = deps.now();
      const added = await deps.store.add(userId, drafts, now);
      await deps.store.prune({ ownerId: userId, now });
      deps.log.info("memory_flushed", { sessionId, found: drafts.length, added: added.length });
    },
  };
}
