/**
 * Statements over `memory_terms` (migrations 0010, 0011: each posting carries its memory's length;
 * 0017: its impact, and per-person statistics in `memory_term_stats` kept by triggers), the
 * owner-scoped term table recall ranks from: writing a memory's terms (`memory/index-terms.ts`) and
 * the bm25 candidate query. bm25 is FTS5's own formula (k1 = 1.2, b = 0.75, IDF clamped at 1e-6, a
 * row's length counting its owner_id column as memories_fts did), with its statistics — row count,
 * average length, rows per term — taken over the owner's memories only (FTS5 took them over
 * everyone's), read as one row each.
 */
import { LENGTH_TERM, memoryIndexTerms, type IndexableMemory } from "../memory/index-terms";

/** A memory whose terms are to be written (by id, or by seq when it is already known). */
export interface TermSource extends IndexableMemory {
  id: string;
}

/**
 * Inserts the terms of memories that exist under `ownerId` (ids not stored — e.g. skipped as
 * duplicates — write nothing). One statement whatever the count: the terms travel as one JSON value.
 * Each memory is found by its id (`+m.owner_id` keeps the planner off the owner's index, which would
 * scan every memory the person holds for each write).
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
      `INSERT OR IGNORE INTO memory_terms (owner_id, term, seq, tf, len, impact)
       SELECT owner_id, term, seq, tf, len, ${impactSql("tf", "len")} FROM (
       SELECT m.owner_id, json_extract(t.value, '$[0]') AS term, m.seq, json_extract(t.value, '$[1]') AS tf, json_extract(e.value, '$.len') AS len
       FROM json_each(?2) AS e
       JOIN memories m ON m.id = json_extract(e.value, '$.id') AND +m.owner_id = ?1,
       json_each(e.value, '$.terms') AS t)`,
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
 * A posting's impact: its bm25 term weight (k1 = 1.2, b = 0.75, IDF aside) at a reference average
 * length of 40 — the order in which recall reads a term's postings (migration 0017 backfilled it with
 * the same expression). For one term and a given average length, bm25 orders postings by this same
 * key whenever their tf is equal (the common case: a term once in a sentence-sized memory).
 */
export function impactSql(tf: string, len: string): string {
  return `${tf} * 1.0 / (${tf} + 1.2 * (0.25 + 0.75 * ${len} / 40.0))`;
}

/**
 * Postings read per query term, best impact first (newest first among equals): the bound that makes a
 * recall's cost depend on its terms, not on the person's memory count. A person with at most this many
 * memories holding each query term is ranked over all of them, exactly as a full bm25 scan would.
 */
export const POSTINGS_PER_TERM = 100;

/**
 * The owner's best `limit` memories for `terms`, best first, with `rank` = −bm25 (lower is better,
 * as FTS5 reports it). Statistics come from `memory_term_stats` (one row per person and per query
 * term); each query term reads at most POSTINGS_PER_TERM postings from `memory_terms_impact`, best
 * impact first. A memory scores over the query terms whose read postings hold it, so the work is
 * bounded by the query (≤ 34 terms × POSTINGS_PER_TERM rows) whatever the person's count.
 * `columns` are memory columns qualified by `m.`.
 */
export function rankedTermsStatement(
  d1: D1Database,
  columns: string,
  ownerId: string,
  terms: readonly string[],
  limit: number,
): D1PreparedStatement | null {
  const distinct = [...new Set(terms)].filter((t) => t !== LENGTH_TERM);
  if (distinct.length === 0) return null;
  const ownerLength = "max(0, length(?1) - 2)";
  // The cut of each term: its POSTINGS_PER_TERM-th best posting (impact, then seq), found by offset
  // along memory_terms_impact and its impact read back by primary key; the term's postings at or
  // above it are one range of that index.
  const nthSeq = `(SELECT seq FROM memory_terms WHERE owner_id = ?1 AND term = idf.term ORDER BY impact DESC, seq DESC LIMIT 1 OFFSET ${POSTINGS_PER_TERM - 1})`;
  const sql = `WITH q(term) AS (SELECT value FROM json_each(?2)),
    stats AS (
      SELECT df AS n, total * 1.0 / max(df, 1) + ${ownerLength} AS avgdl FROM memory_term_stats WHERE owner_id = ?1 AND term = '${LENGTH_TERM}'
    ),
    idf AS (
      SELECT s.term, max(1e-6, ln((stats.n - s.df + 0.5) / (s.df + 0.5))) AS w
      FROM q CROSS JOIN memory_term_stats s ON s.owner_id = ?1 AND s.term = q.term, stats
    ),
    nth AS (SELECT idf.term, idf.w, ${nthSeq} AS seq FROM idf),
    cut AS (
      SELECT nth.term, nth.w, coalesce(p.impact, -1) AS impact, coalesce(nth.seq, -1) AS seq
      FROM nth LEFT JOIN memory_terms p ON p.owner_id = ?1 AND p.term = nth.term AND p.seq = nth.seq
    ),
    hits AS (
      SELECT t.seq, sum(cut.w * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * (t.len + ${ownerLength}) / max(stats.avgdl, 1.0)))) AS score
      FROM cut CROSS JOIN memory_terms t ON t.owner_id = ?1 AND t.term = cut.term AND (t.impact, t.seq) >= (cut.impact, cut.seq), stats
      GROUP BY t.seq ORDER BY score DESC, t.seq DESC LIMIT ?3
    )
    SELECT ${columns}, -hits.score AS rank FROM hits JOIN memories m ON m.seq = hits.seq ORDER BY rank, m.seq DESC`;
  return d1.prepare(sql).bind(ownerId, JSON.stringify(distinct), limit);
}

/** Memories of any owner that have no terms yet (written before the table existed), oldest first. */
export const PENDING_SQL = `SELECT m.id, m.owner_id, m.content, m.keywords, m.codes FROM memories m
  WHERE NOT EXISTS (SELECT 1 FROM memory_terms t WHERE t.owner_id = m.owner_id AND t.term = '${LENGTH_TERM}' AND t.seq = m.seq)
  ORDER BY m.seq LIMIT ?1`;
