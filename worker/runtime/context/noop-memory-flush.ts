/**
 * The memory flush used until long-term memory exists: it saves nothing, and its name says so.
 * The memory capability replaces it with an adapter that extracts preferences into D1.
 */
import type { MemoryFlush } from "../../ports/memory-flush";

/** A MemoryFlush that does nothing (no long-term memory yet). */
export const noopMemoryFlushUntilMemoryExists: MemoryFlush = {
  flushBeforeCompaction: async () => {},
};
