/**
 * Doom-loop detection: over the last 6 calls of a turn, the same tool with the same
 * arguments 3 times — or, for arguments of ≥ 50 characters, 3 calls whose 3-gram Jaccard similarity
 * is ≥ 0.8 — stops the batch. `check_background_tasks` is exempt (polling is its job).
 */

/** Seed 000 constants. */
export const DOOM_LOOP_WINDOW = 6;
export const DOOM_LOOP_THRESHOLD = 3;
export const FUZZY_MIN_CHARS = 50;
export const FUZZY_JACCARD = 0.8;
export const DOOM_LOOP_EXEMPT: ReadonlySet<string> = new Set(["check_background_tasks"]);

/** A call as the detector sees it. */
export interface SeenCall {
  toolName: string;
  args: string;
}

/** Stable text of a call's arguments (keys sorted). */
export function canonicalArgs(input: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v;
  return typeof input === "string" ? input : (JSON.stringify(sort(input)) ?? "null");
}

function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) out.add(text.slice(i, i + 3));
  return out;
}

/** 3-gram Jaccard similarity of two strings. */
export function jaccard3(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  if (x.size === 0 && y.size === 0) return 1;
  let common = 0;
  for (const g of x) if (y.has(g)) common++;
  return common / (x.size + y.size - common);
}

/** The verdict for a new call given the turn's earlier calls. */
export function detectDoomLoop(
  history: readonly SeenCall[],
  next: SeenCall,
): { tripped: false } | { tripped: true; how: "exact" | "fuzzy"; count: number } {
  if (DOOM_LOOP_EXEMPT.has(next.toolName)) return { tripped: false };
  const window = [...history.slice(-(DOOM_LOOP_WINDOW - 1)), next].filter((c) => c.toolName === next.toolName);
  const exact = window.filter((c) => c.args === next.args).length;
  if (exact >= DOOM_LOOP_THRESHOLD) return { tripped: true, how: "exact", count: exact };
  if (next.args.length >= FUZZY_MIN_CHARS) {
    const similar = window.filter(
      (c) => c.args.length >= FUZZY_MIN_CHARS && jaccard3(c.args, next.args) >= FUZZY_JACCARD,
    ).length;
    if (similar >= DOOM_LOOP_THRESHOLD) return { tripped: true, how: "fuzzy", count: similar };
  }
  return { tripped: false };
}
