/**
 * Retention of long-term memory (PARITY.md §2.3): how many memories of each type a
 * person keeps, and how long an unused one lives. Pruning trims over-cap types (never-hit first,
 * then the oldest) and drops entries neither updated nor recalled for 90 days, except preference
 * and persona, which are kept for the long term.
 */
import type { MemoryType } from "../contracts/memory";

/** Most memories kept per person and type (lesson is capped like decision). */
export const MEMORY_CAPS: Readonly<Record<MemoryType, number>> = {
  preference: 50,
  persona: 5,
  scenario: 20,
  session: 50,
  fact: 50,
  stock_opinion: 30,
  decision: 30,
  lesson: 30,
  market_view: 20,
};

/** Days after which an entry nobody updated or recalled is pruned. */
export const MAX_AGE_DAYS = 90;

/** Types never pruned by age. */
export const LONG_TERM_TYPES: readonly MemoryType[] = ["preference", "persona"];

/** Milliseconds per day. */
export const DAY_MS = 86_400_000;

/** The cut-off time: entries last touched (updated or hit) before it are pruned. */
export function ageCutoff(now: number): number {
  return now - MAX_AGE_DAYS * DAY_MS;
}
