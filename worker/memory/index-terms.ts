/**
 * The recall index of one memory: every term a recall query can ask for (stock codes, Latin words,
 * CJK trigrams of the content, CJK bigram keywords) with its frequency, plus the document length,
 * so recall ranks by bm25 from an owner-scoped term table instead of running the FTS5 trigram
 * index over every owner's rows. Frequencies count what the trigram FTS matched: occurrences of the
 * term in the content and the padded keywords, case-insensitively.
 */
import { stockCodes } from "./stock-codes";
import { isCjk, latinWords } from "./terms";

/** The reserved term whose frequency is the memory's length (and whose presence marks it indexed). */
export const LENGTH_TERM = "";

/** Most terms indexed per memory (content is sentence-sized; this only bounds pathological input). */
export const MAX_INDEX_TERMS = 400;

/** What indexing reads of a memory. */
export interface IndexableMemory {
  content: string;
  keywords: readonly string[];
  codes: readonly string[];
}

/** One row of the term table: a term and how often it occurs in the memory. */
export interface IndexTerm {
  term: string;
  tf: number;
}

/** Trigram tokens of a text (what FTS5's trigram tokenizer counts as its length). */
function trigramLength(text: string): number {
  return Math.max(0, [...text].length - 2);
}

/** Non-overlapping and overlapping occurrences alike: how often `needle` starts in `haystack`. */
function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n += 1;
  return n;
}

/** Windows of three CJK characters in the text (repeats kept). */
function cjkTrigrams(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) {
    const [a = "", b = "", c = ""] = chars.slice(i, i + 3);
    if (isCjk(a) && isCjk(b) && isCjk(c)) out.push(a + b + c);
  }
  return out;
}

/**
 * The index terms of a memory with their frequencies, the length term first. Codes keep their
 * case (US tickers are upper-case, as `stockCodes` gives them); everything else is lower-cased.
 */
export function memoryIndexTerms(memory: IndexableMemory): IndexTerm[] {
  const padded = memory.keywords.length === 0 ? "" : ` ${memory.keywords.join(" ")} `;
  const text = `${memory.content}\n${padded}`.toLowerCase();
  const counts = new Map<string, number>();
  const countText = (term: string) => {
    if (!counts.has(term)) counts.set(term, occurrences(text, term.toLowerCase()));
  };
  for (const code of [...stockCodes(memory.content), ...memory.codes]) countText(code);
  for (const word of [...latinWords(memory.content), ...latinWords(padded)]) countText(word);
  for (const trigram of cjkTrigrams(memory.content)) counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  // A 2-character CJK keyword is searched as the padded phrase ` 回踩 `: found once, in the keywords.
  for (const keyword of memory.keywords) {
    if ([...keyword].length === 2 && [...keyword].every(isCjk)) counts.set(keyword, 1);
  }
  const terms = [...counts.entries()]
    .filter(([, tf]) => tf > 0)
    .slice(0, MAX_INDEX_TERMS)
    .map(([term, tf]) => ({ term, tf }));
  return [{ term: LENGTH_TERM, tf: trigramLength(memory.content) + trigramLength(padded) }, ...terms];
}
