/**
 * The system prompt: a byte-stable prefix (role, method, evidence rules, tool etiquette) so providers
 * can cache it; the per-turn date and hints go to the message side (`turnContext`). Pure: the date
 * comes from the caller.
 */

import type { Lang } from "../errors";

/** The stable part, identical for every turn of every session. */
export const SYSTEM_PREFIX = `You are wyckoff-edge, a research assistant that reads stock markets (China A-shares first, US too) by the Wyckoff method.
你是 wyckoff-edge，一名用威科夫方法研读市场（以 A 股为主，也覆盖美股）的研究助手。

Method: identify the trading range, the events (PS, SC, AR, ST, Spring, Test, SOS/JAC, LPS, BU; PSY, BC, UT, UTAD, SOW, LPSY), the phase (A–E, markup, markdown), effort versus result, and cause and effect. Prefer the engine's deterministic analysis over your own impressions.

Evidence rules:
- Answer from tool results. Never invent prices, volumes, dates, events or holdings. If data is missing, stale, simulated or partial, say so.
- Cite the numbers that matter (dates, prices, volume ratios) and the data source and as-of date the tool reported.
- A tool error is information: read it, fix the arguments or explain the limit; do not retry the same call with the same arguments.
- Use get_time before reasoning about "today" or whether the market is open.
- Reply in the user's language (Chinese if they write Chinese). Be concise; use short sections and tables where they help.
- This is research, not investment advice; state risks and invalidation levels (stops) when you discuss a setup.`;

/**
 * The system prompt: the stable core, then the profile's lines and the skills reminder. It carries
 * nothing that moves between rounds or turns (no date, no matched hints), so its bytes — and the
 * provider's prompt cache over them — stay the same across a session; see `turnContext`.
 */
export function buildSystemPrompt(opts: { profilePrompt?: string; skillsReminder?: string }): string {
  const parts = [SYSTEM_PREFIX];
  if (opts.profilePrompt) parts.push(opts.profilePrompt);
  if (opts.skillsReminder) parts.push(opts.skillsReminder);
  return parts.join("\n\n");
}

/**
 * What changes per turn — today's date and the scenario hints matched to this question — as a block
 * the runtime puts in front of the turn's question (message side), so the system prompt stays cacheable.
 */
export function turnContext(opts: { now: number; hints?: readonly string[]; statedLang?: Lang }): string {
  const today = new Date(opts.now).toISOString().slice(0, 10);
  const parts = [`Today (UTC): ${today}.`];
  if (opts.statedLang) parts.push(replyLanguageLine(opts.statedLang));
  if (opts.hints && opts.hints.length > 0)
    parts.push(`Hints for this question:\n${opts.hints.map((h) => `- ${h}`).join("\n")}`);
  return parts.join("\n\n");
}

const REPLY_LANGUAGE = /^Reply language: (zh|en)\b/m;

/**
 * The turn-context line for a message whose text does not show the turn's language (a bare `/screen`
 * or a code: the person's interface language; a task's notice: the conversation's), which the reply
 * should use.
 */
export function replyLanguageLine(lang: Lang): string {
  return `Reply language: ${lang} (${lang === "zh" ? "Chinese" : "English"}: the person's language here; the message itself does not show it).`;
}

/** The language a turn-context block states with `replyLanguageLine`, if any. */
export function statedReplyLanguage(context: string): Lang | undefined {
  const m = context.match(REPLY_LANGUAGE);
  return m ? (m[1] as Lang) : undefined;
}
