/**
 * Statements over `memory_terms` (migrations 0010, 0011: each posting carries its memory's length), the owner-scoped term table recall ranks from:
 * writing a memory's terms (`memory/index-terms.ts`) and the bm25 candidate query. bm25 is FTS5's
 * own formula (k1 = 1.2, b = 0.75, IDF clamped at 1e-6, a row's length counting its owner_id column
 * as memories_fts did), with its statistics — row count, average length, rows per term — taken over
 * the owner's memories only (FTS5 took them over everyone's), read from the primary key.
 */
import { LENGTH_TERM, memoryIndexTerms, type IndexableMemory } from "../memory/index-terms";

/** A memory whose terms are to be written (by id, or by seq when it is already known). */
export interface TermSource extends IndexableMemory {
  id: string;
}

/**
 * Inserts the terms of memories that exist under `ownerId` (ids not stored — e.g. skipped as
 * duplicates — write nothing). One statement whatever the count: the terms travel as one JSON value.
 */
export function insertTermsStatement(
  d1: D1Database,
  ownerId: string,
  list: readonly TermSource[],
): D1PreparedStatement {
  const payload = list.map((m) => {
    const terms = memoryIndexTerms(m);
    return { id: m.id, len: terms[0]?.tf ?? 0, terms: terms.map((t) => [t.term, t.tf]) };
  });
  return d1
    .prepare(
      `INSERT OR IGNORE INTO memory_terms (owner_id, term, seq, tf, len)
       SELECT m.owner_id, json_extract(t.value, '$[0]'), m.seq, json_extract(t.value, '$[1]'), json_extract(e.value, '$.len')
       FROM json_each(?2) AS e
       JOIN memories m ON m.owner_id = ?1 AND m.id = json_extract(e.value, '$.id'),
       json_each(e.value, '$.terms') AS t`,
    )
    .bind(ownerId, JSON.stringify(payload));
}

/** Deletes the terms of one memory of the owner (before writing them again). */
export function deleteTermsStatement(d1: D1Database, ownerId: string, id: string): D1PreparedStatement {
  return d1
    .prepare(`DELETE FROM memory_terms WHERE seq = (SELECT seq FROM memories WHERE owner_id = ?1 AND id = ?2)`)
    .bind(ownerId, id);
}

/**
 * The owner's best `?3` memories for the terms `?2` (a JSON array), best first, with `rank` = −bm25
 * (lower is better, as FTS5 reports it). Every lookup goes through the primary key
 * (owner_id, term), driven from the query terms (CROSS JOIN fixes that order: a scan of the owner's
 * postings filtered by term is what the planner picks otherwise): the work grows with the owner's
 * rows that hold a query term, never with the table. `columns` are memory columns qualified by `m.`.
 */
export function rankedTermsSql(columns: string): string {
  const ownerLength = "max(0, length(?1) - 2)";
  return `WITH q(term) AS (SELECT DISTINCT value FROM json_each(?2) WHERE value <> '${LENGTH_TERM}'),
    stats AS (
      SELECT count(*) AS n, avg(tf) + ${ownerLength} AS avgdl FROM memory_terms WHERE owner_id = ?1 AND term = '${LENGTH_TERM}'
    ),
    idf AS (
      SELECT t.term, max(1e-6, ln((stats.n - count(*) + 0.5) / (count(*) + 0.5))) AS w
      FROM q CROSS JOIN memory_terms t ON t.owner_id = ?1 AND t.term = q.term, stats GROUP BY t.term
    ),
    hits AS (
      SELECT t.seq, sum(idf.w * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * (t.len + ${ownerLength}) / max(stats.avgdl, 1.0)))) AS score
      FROM idf
      CROSS JOIN memory_terms t ON t.owner_id = ?1 AND t.term = idf.term, stats
      GROUP BY t.seq ORDER BY score DESC, t.seq DESC LIMIT ?3
    )
    SELECT ${columns}, -hits.score AS rank FROM hits JOIN memories m ON m.seq = hits.seq ORDER BY rank, m.seq DESC`;
}

/** Memories of any owner that have no terms yet (written before the table existed), oldest first. */
export const PENDING_SQL = `SELECT m.id, m.owner_id, m.content, m.keywords, m.codes FROM memories m
  WHERE NOT EXISTS (SELECT 1 FROM memory_terms t WHERE t.owner_id = m.owner_id AND t.term = '${LENGTH_TERM}' AND t.seq = m.seq)
  ORDER BY m.seq LIMIT ?1`;
