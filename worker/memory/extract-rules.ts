/**
 * Memory extraction without a model call: keyword rules in Chinese and
 * English pick preference and decision sentences from the user's words and lesson sentences from
 * the assistant's, at most 3 sentences per memory, refused by the never-store rules, exact
 * duplicates dropped.
 */
import { MAX_MEMORY_CHARS, type MemoryOrigin, type MemorySource, type MemoryType } from "../contracts/memory";
import { extractKeywords } from "./keywords";
import { refusalOf } from "./never-store";
import { stockCodes } from "./stock-codes";

/** A memory to store (ids and times are given by the store). */
export interface MemoryDraft {
  type: MemoryType;
  content: string;
  keywords: string[];
  codes: string[];
  origin: MemoryOrigin;
  source: MemorySource;
}

/** One side of a turn: the stored message id and its text. */
export interface TurnMessageText {
  id: string;
  text: string;
}

/** Sentences kept per memory. */
export const MAX_SENTENCES = 3;

interface Rule {
  type: MemoryType;
  zh: RegExp;
  en: RegExp;
}

const USER_RULES: Rule[] = [
  {
    type: "preference",
    zh: /喜欢|偏好|习惯|希望|倾向|更愿意|宁愿|讨厌|从不|从来不|一向|风格/,
    en: /\bi (?:really |strongly )?(?:like|prefer|love|hate|dislike|usually|always|never|tend to|want|wish|avoid)\b|\bmy (?:style|preference|rule|habit)\b|\bi'd rather\b/i,
  },
  {
    type: "decision",
    zh: /决定|选择|采用|打算|计划|以后|今后|从现在起|定下/,
    en: /\bi(?:'ve| have)? decided\b|\bi (?:will|am going to|choose|chose|plan to|intend to)\b|\bi'll\b|\bi'm going to\b|\bfrom now on\b|\bgoing forward\b/i,
  },
];

const ASSISTANT_RULES: Rule[] = [
  {
    type: "lesson",
    zh: /建议|注意|教训|提醒|切记|务必|避免|关键在于/,
    en: /\bi (?:recommend|suggest)\b|\bnote that\b|\bkeep in mind\b|\blessons?\b|\bremember\b|\bbe careful\b|\bwatch out\b|\bavoid\b|\bmake sure\b/i,
  },
];

/** Splits text into sentences (Chinese and English punctuation, line breaks), markdown markers removed. */
export function sentencesOf(text: string): string[] {
  const cleaned = text
    .replace(/```[\s\S]*?```/g, "\n")
    .replace(/`[^`]*`/g, "")
    .replace(/^\s*(?:[#>*-]+|\d+[.)])\s*/gm, "")
    .replace(/\*\*|__/g, "");
  const out: string[] = [];
  for (const line of cleaned.split(/\n+/))
    for (const m of line.matchAll(/[^。！？!?；;]+[。！？!?；;]*|[^.]+(?:\.(?=\s|$))?/g)) {
      // English periods end a sentence only before a space or the end (not inside 3.5 or e.g).
      for (const piece of m[0].split(/(?<=[a-z)\]"'][.])\s+/i)) {
        const s = piece.trim();
        if (s.length >= 4) out.push(s);
      }
    }
  return out;
}

function isQuestion(sentence: string): boolean {
  return /[?？]$|吗[。！？!?]*$|^(?:what|how|why|which|should|can|could|would|do|does|is|are)\b/i.test(sentence);
}

function draftsOf(message: TurnMessageText, rules: Rule[], source: MemorySource, asked: boolean): MemoryDraft[] {
  const picked = new Map<MemoryType, string[]>();
  for (const sentence of sentencesOf(message.text)) {
    if (asked && isQuestion(sentence)) continue;
    const rule = rules.find((r) => r.zh.test(sentence) || r.en.test(sentence));
    if (!rule || refusalOf(sentence) !== null) continue;
    const list = picked.get(rule.type) ?? [];
    if (list.length < MAX_SENTENCES && !list.includes(sentence)) list.push(sentence);
    picked.set(rule.type, list);
  }
  return [...picked.entries()].map(([type, sentences]) => {
    const content = sentences.join(" ").slice(0, MAX_MEMORY_CHARS);
    return {
      type,
      content,
      keywords: extractKeywords(content),
      codes: stockCodes(content),
      origin: "rule",
      source: { ...source, messageIds: [message.id] },
    };
  });
}

/** Drops exact duplicates (same type, content and codes), keeping the first. */
export function uniqueDrafts(drafts: readonly MemoryDraft[]): MemoryDraft[] {
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const key = `${d.type}\u0000${d.content}\u0000${d.codes.join(" ")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The memories one finished turn yields by the rules. */
export function extractByRules(turn: {
  sessionId: string;
  user: TurnMessageText | undefined;
  assistant: TurnMessageText | undefined;
}): MemoryDraft[] {
  const source = { sessionId: turn.sessionId, messageIds: [] };
  return uniqueDrafts([
    ...(turn.user ? draftsOf(turn.user, USER_RULES, source, true) : []),
    ...(turn.assistant ? draftsOf(turn.assistant, ASSISTANT_RULES, source, false) : []),
  ]);
}

/** Preference and decision sentences of user messages (the pre-compaction flush; no model call). */
export function extractFromUserTexts(sessionId: string, texts: readonly TurnMessageText[]): MemoryDraft[] {
  const source = { sessionId, messageIds: [] };
  return uniqueDrafts(texts.flatMap((t) => draftsOf(t, USER_RULES, source, true)));
}
