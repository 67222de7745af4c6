/**
 * Recall ranking (PARITY.md §2.3): FTS bm25 (weight 1.0), exact stock-code match
 * (0.85) and keyword overlap (0.6) blended, times a type weight and the memory's relevance, decayed
 * with a 30-day half-life (preference and persona exempt). The last persona and up to 5 preferences
 * are pinned first; the rest follow by score, cut to a token budget and a count.
 */
import type { MemorySource, MemoryType } from "../contracts/memory";
import { DAY_MS } from "./caps";

/** A memory recall may return, as the store hands it over. */
export interface RecallCandidate {
  id: string;
  type: MemoryType;
  content: string;
  keywords: string[];
  codes: string[];
  relevance: number;
  updatedAt: number;
  source: MemorySource;
  /** FTS5 bm25 of the match (lower is better), or null when the row did not come from the FTS match. */
  bm25: number | null;
}

/** Half-life of a memory's weight, in days. */
export const HALF_LIFE_DAYS = 30;
/** Token budget of the injected memory block. */
export const RECALL_TOKEN_BUDGET = 600;
/** Most memories injected into one turn. */
export const RECALL_TOP_K = 10;
/** Preferences pinned first, after the last persona. */
export const PINNED_PREFERENCES = 5;

const WEIGHTS = { fts: 1.0, code: 0.85, keyword: 0.6 } as const;

const TYPE_WEIGHT: Readonly<Record<MemoryType, number>> = {
  persona: 1.3,
  preference: 1.2,
  decision: 1.1,
  scenario: 1.0,
  lesson: 1.0,
  stock_opinion: 0.9,
  fact: 0.9,
  market_view: 0.7,
  session: 0.6,
};

const EXEMPT_FROM_DECAY: ReadonlySet<MemoryType> = new Set(["preference", "persona"]);

/** 2^(−age/30 days); 1 for preference and persona, and for memories from the future. */
export function decay(type: MemoryType, updatedAt: number, now: number): number {
  if (EXEMPT_FROM_DECAY.has(type)) return 1;
  const ageDays = Math.max(0, now - updatedAt) / DAY_MS;
  return 2 ** (-ageDays / HALF_LIFE_DAYS);
}

/** The query side of scoring. */
export interface ScoreQuery {
  codes: readonly string[];
  keywords: readonly string[];
}

/** A candidate with its score. */
export interface ScoredMemory extends RecallCandidate {
  score: number;
  pinned: boolean;
}

/** Scores candidates (bm25 normalised against the best match among them); 0 means "not relevant". */
export function scoreCandidates(
  candidates: readonly RecallCandidate[],
  query: ScoreQuery,
  now: number,
): ScoredMemory[] {
  const best = Math.min(0, ...candidates.map((c) => c.bm25 ?? 0));
  const wanted = new Set(query.keywords);
  return candidates.map((c) => {
    const fts = c.bm25 !== null && best < 0 ? Math.min(1, c.bm25 / best) : 0;
    const code = c.codes.some((x) => query.codes.includes(x)) ? 1 : 0;
    const overlap = c.keywords.filter((k) => wanted.has(k)).length;
    const base = WEIGHTS.fts * fts + WEIGHTS.code * code + WEIGHTS.keyword * Math.min(1, overlap / 3);
    const score = base * TYPE_WEIGHT[c.type] * c.relevance * decay(c.type, c.updatedAt, now);
    return { ...c, score, pinned: false };
  });
}

/**
 * The memories to inject: the last persona and up to 5 preferences pinned (relevant ones first,
 * then the most recent), then the best-scoring others; each must fit the remaining token budget.
 * `candidates` are distinct by id; `tokens` estimates a formatted line.
 */
export function selectForRecall(
  scored: readonly ScoredMemory[],
  opts: { format: (m: ScoredMemory) => string; tokens: (text: string) => number; budget?: number; topK?: number },
): ScoredMemory[] {
  const budget = opts.budget ?? RECALL_TOKEN_BUDGET;
  const topK = opts.topK ?? RECALL_TOP_K;
  const byScore = (a: ScoredMemory, b: ScoredMemory) => b.score - a.score || b.updatedAt - a.updatedAt;
  const persona = scored.filter((m) => m.type === "persona").sort((a, b) => b.updatedAt - a.updatedAt)[0];
  const preferences = scored
    .filter((m) => m.type === "preference")
    .sort(byScore)
    .slice(0, PINNED_PREFERENCES);
  const pinned = [...(persona ? [persona] : []), ...preferences].map((m) => ({ ...m, pinned: true }));
  const pinnedIds = new Set(pinned.map((m) => m.id));
  const rest = scored.filter((m) => !pinnedIds.has(m.id) && m.score > 0).sort(byScore);
  const chosen: ScoredMemory[] = [];
  let used = 0;
  for (const m of [...pinned, ...rest]) {
    if (chosen.length >= topK) break;
    const cost = opts.tokens(opts.format(m));
    if (used + cost > budget) continue;
    used += cost;
    chosen.push(m);
  }
  return chosen;
}
