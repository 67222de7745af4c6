/**
 * Scenario hints for the system prompt: which of an owner's hints (shipped ones and their own) a
 * message calls up — those with a keyword the message contains, case-insensitively, at most 3.
 */

/** A hint as the API shows it. */
export interface Hint {
  id: string;
  keywords: string[];
  text: string;
  builtin: boolean;
}

/** Most hints added to one turn's prompt. */
export const MAX_HINTS_PER_TURN = 3;

/** The first `max` hints with a keyword the message contains (case-insensitive; empty keywords never match). */
export function matchHints(hints: readonly Hint[], message: string, max = MAX_HINTS_PER_TURN): Hint[] {
  const text = message.toLowerCase();
  return hints.filter((h) => h.keywords.some((k) => k !== "" && text.includes(k.toLowerCase()))).slice(0, max);
}
