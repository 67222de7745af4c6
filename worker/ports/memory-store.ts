/**
 * Port: long-term memories of each person, stored with their source. Every call is
 * scoped to one owner; an id of another owner is treated as absent. Failures throw (never
 * swallowed): callers decide whether a turn goes on without memories.
 */
import type { MemoryOrigin, MemorySource, MemoryType } from "../contracts/memory";

/** A stored memory (times in epoch milliseconds). */
export interface StoredMemory {
  id: string;
  type: MemoryType;
  content: string;
  keywords: string[];
  codes: string[];
  relevance: number;
  origin: MemoryOrigin;
  source: MemorySource;
  createdAt: number;
  updatedAt: number;
  lastHitAt: number | null;
}

/** A memory to add. */
export interface NewMemory {
  type: MemoryType;
  content: string;
  keywords: string[];
  codes: string[];
  origin: MemoryOrigin;
  source: MemorySource;
}

/** A stored memory found by full-text search, with its bm25 (lower is better). */
export interface MatchedMemory extends StoredMemory {
  bm25: number;
}

/** What recall reads in one round trip. */
export interface RecallRows {
  /** Best full-text matches (empty when there was no query). */
  matched: MatchedMemory[];
  /** The latest persona and the most recent preferences (pinning candidates). */
  pinned: StoredMemory[];
}

/** Changes a person makes to a memory. */
export interface MemoryChange {
  content?: string;
  keywords?: string[];
  codes?: string[];
  type?: MemoryType;
  relevance?: number;
}

/** The memory store. */
export interface MemoryStore {
  /** Adds memories; exact duplicates (owner, type, content, codes) are skipped. Returns the ids added. */
  add(ownerId: string, memories: readonly NewMemory[], now: number): Promise<string[]>;
  /**
   * The best full-text matches (bm25) for recall terms (`RecallQuery.terms`) plus the pinning
   * candidates, in one round trip.
   */
  recallRows(
    ownerId: string,
    terms: readonly string[],
    opts: { limit: number; preferences: number },
  ): Promise<RecallRows>;
  /** Marks memories as recalled at `now` (`last_hit_at`). */
  touch(ownerId: string, ids: readonly string[], now: number): Promise<void>;
  /** Applies caps and the age rule to one owner (or everyone); idempotent. Returns how many were removed. */
  prune(opts: { ownerId?: string; now: number }): Promise<number>;
  /** The owner's memories, newest first, or best match first when `match` is given. */
  list(ownerId: string, opts: { type?: MemoryType; match?: string; limit: number }): Promise<StoredMemory[]>;
  /** The owner's most recent memories of the given types (L1 atoms for the layer refresh). */
  recent(ownerId: string, types: readonly MemoryType[], limit: number): Promise<StoredMemory[]>;
  /** One memory of the owner, or null. */
  get(ownerId: string, id: string): Promise<StoredMemory | null>;
  /** Changes a memory of the owner; null when absent. */
  update(ownerId: string, id: string, change: MemoryChange, now: number): Promise<StoredMemory | null>;
  /** Deletes a memory of the owner; false when absent. */
  remove(ownerId: string, id: string): Promise<boolean>;
  /** Deletes the owner's memories of `types` made by `origin` (a layer refresh replaces its lines). */
  removeByOrigin(ownerId: string, types: readonly MemoryType[], origin: MemoryOrigin): Promise<number>;
  /** Indexes up to `limit` memories stored before recall's term index existed; returns how many (0 when none are left). */
  indexPending(limit: number): Promise<number>;
}
