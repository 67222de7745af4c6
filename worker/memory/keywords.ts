/**
 * Keywords of a memory by stop-word-filtered frequency: CJK bigrams,
 * Latin words and stock codes, most frequent first (ties: first seen). They are stored padded with
 * spaces (` 回踩 突破 `) so a 2-character keyword becomes a ≥3-character trigram phrase.
 */
import { stockCodes } from "./stock-codes";
import { cjkBigrams, latinWords } from "./terms";

/** Keywords kept per memory. */
export const MAX_KEYWORDS = 24;

/** The keywords of `text`, most frequent first, at most `max`. */
export function extractKeywords(text: string, max = MAX_KEYWORDS): string[] {
  const counts = new Map<string, { n: number; first: number }>();
  const terms = [...stockCodes(text), ...cjkBigrams(text), ...latinWords(text)];
  terms.forEach((term, i) => {
    const seen = counts.get(term);
    if (seen) seen.n += 1;
    else counts.set(term, { n: 1, first: i });
  });
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)
    .slice(0, max)
    .map(([term]) => term);
}

/** Terms as stored in a padded column: ` a b c ` (empty list → empty string). */
export function padTerms(terms: readonly string[]): string {
  return terms.length === 0 ? "" : ` ${terms.join(" ")} `;
}

/** The terms of a padded column. */
export function unpadTerms(column: string): string[] {
  return column.split(" ").filter((t) => t !== "");
}
