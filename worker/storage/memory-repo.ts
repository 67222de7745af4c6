/**
 * D1MemoryStore: the MemoryStore port over D1. CRUD through drizzle. Recall ranks by bm25 from the
 * owner-scoped term table `memory_terms` (written here with every add and edit; `memory-terms.ts`)
 * and reads matches and pinning candidates in one batch; the API search keeps the trigram FTS5 table
 * `memories_fts` (MATCH of quoted terms from `memory/fts-query.ts`, scoped to the owner in the index).
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { excerpt } from "../lib/size-budget";
import { MAX_MEMORY_CHARS } from "../contracts/memory";
import { MemorySource, type MemoryOrigin, type MemoryType } from "../contracts/memory";
import { MEMORY_CAPS, LONG_TERM_TYPES, ageCutoff } from "../memory/caps";
import { quoteTerm } from "../memory/fts-query";
import { padTerms, unpadTerms } from "../memory/keywords";
import type {
  MatchedMemory,
  MemoryChange,
  MemoryStore,
  NewMemory,
  RecallRows,
  StoredMemory,
} from "../ports/memory-store";
import { newId } from "../http/secrets";
import { createDb, type Db } from "./db";
import { deleteTermsStatement, insertTermsStatement, PENDING_SQL, rankedTermsStatement } from "./memory-terms";
import { memories } from "./schema";

const COLUMNS =
  "m.id, m.type, m.content, m.keywords, m.codes, m.relevance, m.origin, m.source_ref, m.created_at, m.updated_at, m.last_hit_at";

interface RawRow {
  id: string;
  type: MemoryType;
  content: string;
  keywords: string;
  codes: string;
  relevance: number;
  origin: MemoryOrigin;
  source_ref: string;
  created_at: number;
  updated_at: number;
  last_hit_at: number | null;
  rank?: number;
}

function fromRaw(r: RawRow): StoredMemory {
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    keywords: unpadTerms(r.keywords),
    codes: unpadTerms(r.codes),
    relevance: r.relevance,
    origin: r.origin,
    source: MemorySource.parse(JSON.parse(r.source_ref)),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastHitAt: r.last_hit_at,
  };
}

function fromRow(r: typeof memories.$inferSelect): StoredMemory {
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    keywords: unpadTerms(r.keywords),
    codes: unpadTerms(r.codes),
    relevance: r.relevance,
    origin: r.origin,
    source: MemorySource.parse(r.sourceRef),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastHitAt: r.lastHitAt,
  };
}

const CAPS_CTE = Object.entries(MEMORY_CAPS)
  .map(([type, cap]) => `('${type}', ${cap})`)
  .join(", ");

/**
 * The MATCH expression scoped to one owner (the FTS index holds owner_id), so bm25 ranks only that
 * owner's rows. Owner ids under 3 characters cannot be a trigram phrase: the SQL owner filter alone applies.
 */
function ownerScoped(ownerId: string, match: string): string {
  return [...ownerId].length >= 3 ? `owner_id : ${quoteTerm(ownerId)} AND (${match})` : match;
}

/**
 * Marks recalled memories as hit (`?1` owner, `?2` a JSON array of ids, `?3` the time). Each memory is
 * found by its unique id; `+owner_id` keeps the planner off the owner's indexes, which it prefers once
 * a recall touches several ids — and which scan every memory the person holds (the growth of recall
 * with the person's count, issue 21: this write runs after each recall and D1 runs statements one at a
 * time). The owner still scopes the write.
 */
export const TOUCH_SQL = `UPDATE memories SET last_hit_at = ?3
  WHERE id IN (SELECT value FROM json_each(?2)) AND +owner_id = ?1`;

/** The memory store over a D1 database; `newId` makes memory ids (`mem_…`). */
export class D1MemoryStore implements MemoryStore {
  private readonly db: Db;

  constructor(
    private readonly d1: D1Database,
    private readonly newId: () => string,
  ) {
    this.db = createDb(d1);
  }

  async add(ownerId: string, list: readonly NewMemory[], now: number): Promise<string[]> {
    if (list.length === 0) return [];
    const rows = list.map((m) => ({ ...m, id: this.newId() }));
    const payload = rows.map((m) => ({
      id: m.id,
      type: m.type,
      content: excerpt(m.content, MAX_MEMORY_CHARS * 4), // extraction keeps them short; a D1 row never grows
      keywords: padTerms(m.keywords),
      codes: padTerms(m.codes),
      origin: m.origin,
      source: JSON.stringify(m.source),
    }));
    // Rows and terms in one batch (one transaction), so no memory is ever stored unsearchable; rows
    // travel as one JSON value (D1 binds at most 100 parameters per statement).
    const [inserted] = await this.d1.batch<{ id: string }>([
      this.d1
        .prepare(
          `INSERT INTO memories (id, owner_id, type, content, keywords, codes, origin, source_ref, created_at, updated_at)
           SELECT json_extract(value, '$.id'), ?1, json_extract(value, '$.type'), json_extract(value, '$.content'),
             json_extract(value, '$.keywords'), json_extract(value, '$.codes'), json_extract(value, '$.origin'),
             json_extract(value, '$.source'), ?3, ?3
           FROM json_each(?2) WHERE true
           ON CONFLICT DO NOTHING RETURNING id`,
        )
        .bind(ownerId, JSON.stringify(payload), now),
      insertTermsStatement(this.d1, ownerId, rows),
    ]);
    const added = new Set((inserted?.results ?? []).map((r) => r.id));
    return rows.filter((r) => added.has(r.id)).map((r) => r.id);
  }

  async recallRows(
    ownerId: string,
    terms: readonly string[],
    opts: { limit: number; preferences: number },
  ): Promise<RecallRows> {
    const pinned = [
      this.d1
        .prepare(
          `SELECT ${COLUMNS} FROM memories m WHERE m.owner_id = ?1 AND m.type = 'persona' ORDER BY m.updated_at DESC LIMIT 1`,
        )
        .bind(ownerId),
      this.d1
        .prepare(
          `SELECT ${COLUMNS} FROM memories m WHERE m.owner_id = ?1 AND m.type = 'preference' ORDER BY m.updated_at DESC LIMIT ?2`,
        )
        .bind(ownerId, opts.preferences),
    ];
    const ranked = rankedTermsStatement(this.d1, COLUMNS, ownerId, terms, opts.limit);
    const search = ranked ? [ranked] : [];
    const results = await this.d1.batch<RawRow>([...pinned, ...search]);
    const [persona, preferences, found] = results.map((r) => r.results);
    return {
      pinned: [...(persona ?? []), ...(preferences ?? [])].map(fromRaw),
      matched: (found ?? []).map((r): MatchedMemory => ({ ...fromRaw(r), bm25: r.rank ?? 0 })),
    };
  }

  async touch(ownerId: string, ids: readonly string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.d1.prepare(TOUCH_SQL).bind(ownerId, JSON.stringify(ids), now).run();
  }

  async prune(opts: { ownerId?: string; now: number }): Promise<number> {
    const owner = opts.ownerId === undefined ? "" : "AND owner_id = ?2";
    const longTerm = LONG_TERM_TYPES.map((t) => `'${t}'`).join(", ");
    const aged = this.d1
      .prepare(
        `DELETE FROM memories WHERE type NOT IN (${longTerm}) AND max(updated_at, coalesce(last_hit_at, 0)) < ?1 ${owner}`,
      )
      .bind(...(opts.ownerId === undefined ? [ageCutoff(opts.now)] : [ageCutoff(opts.now), opts.ownerId]));
    // Keep the top `cap` of each (owner, type): recalled ones first (most recent hit first), then the newest.
    const capped = this.d1
      .prepare(
        `WITH caps(type, cap) AS (VALUES ${CAPS_CTE}),
         ranked AS (
           SELECT seq, type, row_number() OVER (
             PARTITION BY owner_id, type
             ORDER BY last_hit_at IS NULL, coalesce(last_hit_at, updated_at) DESC, seq DESC
           ) AS rn
           FROM memories WHERE 1 = 1 ${opts.ownerId === undefined ? "" : "AND owner_id = ?1"}
         )
         DELETE FROM memories WHERE seq IN (
           SELECT ranked.seq FROM ranked JOIN caps ON caps.type = ranked.type WHERE ranked.rn > caps.cap
         )`,
      )
      .bind(...(opts.ownerId === undefined ? [] : [opts.ownerId]));
    const [a, b] = await this.d1.batch([aged, capped]);
    return (a?.meta.changes ?? 0) + (b?.meta.changes ?? 0);
  }

  async list(ownerId: string, opts: { type?: MemoryType; match?: string; limit: number }): Promise<StoredMemory[]> {
    if (opts.match) {
      const typed = opts.type ? "AND m.type = ?4" : "";
      const { results } = await this.d1
        .prepare(
          `SELECT ${COLUMNS} FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
           WHERE memories_fts MATCH ?1 AND m.owner_id = ?2 ${typed} ORDER BY bm25(memories_fts, 1.0, 1.0, 0.0) LIMIT ?3`,
        )
        .bind(ownerScoped(ownerId, opts.match), ownerId, opts.limit, ...(opts.type ? [opts.type] : []))
        .all<RawRow>();
      return results.map(fromRaw);
    }
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(eq(memories.ownerId, ownerId), opts.type ? eq(memories.type, opts.type) : undefined))
      .orderBy(desc(memories.updatedAt), desc(memories.seq))
      .limit(opts.limit);
    return rows.map(fromRow);
  }

  async recent(ownerId: string, types: readonly MemoryType[], limit: number): Promise<StoredMemory[]> {
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(eq(memories.ownerId, ownerId), inArray(memories.type, [...types])))
      .orderBy(desc(memories.updatedAt), desc(memories.seq))
      .limit(limit);
    return rows.map(fromRow);
  }

  async get(ownerId: string, id: string): Promise<StoredMemory | null> {
    const row = await this.db
      .select()
      .from(memories)
      .where(and(eq(memories.ownerId, ownerId), eq(memories.id, id)))
      .get();
    return row ? fromRow(row) : null;
  }

  async update(ownerId: string, id: string, change: MemoryChange, now: number): Promise<StoredMemory | null> {
    const set: Partial<typeof memories.$inferInsert> = { updatedAt: now };
    if (change.content !== undefined) set.content = change.content;
    if (change.keywords !== undefined) set.keywords = padTerms(change.keywords);
    if (change.codes !== undefined) set.codes = padTerms(change.codes);
    if (change.type !== undefined) set.type = change.type;
    if (change.relevance !== undefined) set.relevance = change.relevance;
    const [row] = await this.db
      .update(memories)
      .set(set)
      .where(and(eq(memories.ownerId, ownerId), eq(memories.id, id)))
      .returning();
    if (!row) return null;
    const stored = fromRow(row);
    if (change.content !== undefined || change.keywords !== undefined || change.codes !== undefined)
      await this.d1.batch([
        deleteTermsStatement(this.d1, ownerId, id),
        insertTermsStatement(this.d1, ownerId, [stored]),
      ]);
    return stored;
  }

  async remove(ownerId: string, id: string): Promise<boolean> {
    const gone = await this.db
      .delete(memories)
      .where(and(eq(memories.ownerId, ownerId), eq(memories.id, id)))
      .returning({ id: memories.id });
    return gone.length > 0;
  }

  async removeByOrigin(ownerId: string, types: readonly MemoryType[], origin: MemoryOrigin): Promise<number> {
    const gone = await this.db
      .delete(memories)
      .where(and(eq(memories.ownerId, ownerId), inArray(memories.type, [...types]), eq(memories.origin, origin)))
      .returning({ id: memories.id });
    return gone.length;
  }

  /**
   * Writes the terms of up to `limit` memories stored before the term table existed (any owner);
   * returns how many it indexed (0 once all are). Idempotent.
   */
  async indexPending(limit: number): Promise<number> {
    const { results } = await this.d1
      .prepare(PENDING_SQL)
      .bind(limit)
      .all<{ id: string; owner_id: string; content: string; keywords: string; codes: string }>();
    const byOwner = new Map<string, typeof results>();
    for (const r of results) byOwner.set(r.owner_id, [...(byOwner.get(r.owner_id) ?? []), r]);
    const statements = [...byOwner].map(([ownerId, list]) =>
      insertTermsStatement(
        this.d1,
        ownerId,
        list.map((r) => ({
          id: r.id,
          content: r.content,
          keywords: unpadTerms(r.keywords),
          codes: unpadTerms(r.codes),
        })),
      ),
    );
    if (statements.length > 0) await this.d1.batch(statements);
    return results.length;
  }
}

/** Counts the owner's memories (tests and the bench). */
export async function countMemories(d1: D1Database, ownerId: string): Promise<number> {
  const row = await createDb(d1)
    .select({ n: sql<number>`count(*)` })
    .from(memories)
    .where(eq(memories.ownerId, ownerId))
    .get();
  return row?.n ?? 0;
}

/** The memory store of the D1 database, with random `mem_` ids. */
export function memoryStoreOf(d1: D1Database): D1MemoryStore {
  return new D1MemoryStore(d1, () => newId("mem_"));
}
