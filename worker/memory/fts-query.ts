/**
 * Builds the FTS5 query of a recall from terms extracted out of the user's text — never from the
 * raw text (PARITY.md §2.3: WyckoffAgent passed it to MATCH). Every term is a double-quoted string,
 * so quotes, `*`, `NEAR`, `AND`/`OR`/`NOT`, `:` and parentheses in the text are plain characters.
 * The index uses the trigram tokenizer: CJK segments give trigrams, 2-character words are matched
 * as space-padded keywords (` 回踩 `, 4 characters), Latin words and codes as substrings.
 */
import { stockCodes } from "./stock-codes";
import { cjkSegments, latinWords, ngrams } from "./terms";

/** Most terms of each kind in one query (keeps the statement bounded whatever the text). */
export const QUERY_TERM_CAPS = { codes: 4, words: 6, trigrams: 12, bigrams: 12 } as const;

/** What recall searches with. */
export interface RecallQuery {
  /** The FTS5 MATCH expression, or null when the text has no usable term. */
  match: string | null;
  /**
   * The same terms unquoted, as the term table holds them (`memory/index-terms.ts`): codes, Latin
   * words, CJK trigrams and CJK bigrams (searched as whole keywords, the padded phrase above).
   */
  terms: string[];
  /** Stock codes named in the text (matched exactly against a memory's codes). */
  codes: string[];
  /** Keywords of the text (CJK bigrams, Latin words) for the overlap score. */
  keywords: string[];
}

/** A term as an FTS5 string: double-quoted, inner quotes doubled. */
export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function capped(values: Iterable<string>, max: number): string[] {
  return [...new Set(values)].slice(0, max);
}

/** The recall query for a user's text. */
export function buildRecallQuery(text: string): RecallQuery {
  const codes = capped(stockCodes(text), QUERY_TERM_CAPS.codes);
  const words = capped(latinWords(text), QUERY_TERM_CAPS.words);
  const segments = cjkSegments(text);
  const trigrams = capped(
    segments.filter((s) => s.length >= 3).flatMap((s) => ngrams(s, 3)),
    QUERY_TERM_CAPS.trigrams,
  );
  const bigrams = capped(
    segments.flatMap((s) => ngrams(s, 2)),
    QUERY_TERM_CAPS.bigrams,
  );
  const phrases = [...codes, ...words, ...trigrams, ...bigrams.map((b) => ` ${b} `)];
  return {
    match: phrases.length === 0 ? null : phrases.map(quoteTerm).join(" OR "),
    terms: [...codes, ...words, ...trigrams, ...bigrams],
    codes,
    keywords: [...bigrams, ...words],
  };
}
