/**
 * Compaction: when a request would pass window − reserve, the older head of the
 * transcript becomes a ≤ 500-character summary and the model sees `[对话摘要]` + an acknowledgement
 * + the tail. Non-destructive: the full history stays stored; only the view changes. The tail is
 * chosen by token budget (≤ 20K and ≥ 4K tokens, ≥ 4 messages; at most half the threshold on small
 * windows), never starts with a tool message,
 * and so keeps every tool result with its call.
 */
import type { ModelMessage, ToolSet } from "ai";
import type { Lang } from "../errors";
import { compactionThreshold } from "./model-metadata";
import { messageTokens, requestTokens } from "./tokens";

/** Tail kept whole by a compaction: at most 20K and at least 4K tokens, and at least 4 messages. */
export const TAIL_MAX_TOKENS = 20_000;
export const TAIL_MIN_TOKENS = 4_000;
export const TAIL_MIN_MESSAGES = 4;
/** Longest summary kept (characters). */
export const SUMMARY_MAX_CHARS = 500;

/** The model's transcript: an optional summary of the first `coveredCount` messages, then the rest. */
export interface Transcript {
  summary: string | null;
  coveredCount: number;
  messages: ModelMessage[];
}

const ACK: Record<Lang, string> = {
  zh: "好的，我已了解之前的对话，继续。",
  en: "Understood, I have the earlier conversation in mind; continuing.",
};

/** What the model sees. */
export function viewOf(t: Transcript, lang: Lang): ModelMessage[] {
  if (!t.summary) return t.messages;
  return [
    { role: "user", content: `[对话摘要]\n${t.summary}` },
    { role: "assistant", content: [{ type: "text", text: ACK[lang] }] },
    ...t.messages,
  ];
}

/**
 * Where the tail starts, or null when there is no head worth compacting. Walks back from the end
 * while within budget; the start then moves back past tool messages to their assistant call.
 */
export function selectTailStart(
  messages: readonly ModelMessage[],
  tokensOf: (m: ModelMessage) => number = messageTokens,
  maxTokens = TAIL_MAX_TOKENS,
): number | null {
  const minTokens = Math.min(TAIL_MIN_TOKENS, Math.floor(maxTokens / 2));
  let start = messages.length;
  let tokens = 0;
  while (start > 0) {
    const next = tokensOf(messages[start - 1] as ModelMessage);
    const count = messages.length - start;
    const mustTake = count < TAIL_MIN_MESSAGES || tokens < minTokens;
    if (!mustTake && tokens + next > maxTokens) break;
    tokens += next;
    start--;
  }
  while (start > 0 && messages[start]?.role === "tool") start--;
  return start > 0 ? start : null;
}

/** Asks for a summary of `head` (following `previous`, if any). */
export type Summarize = (head: readonly ModelMessage[], previous: string | null, lang: Lang) => Promise<string>;

/** What a compaction did, for the `data-compaction` part and the stored state. */
export type CompactionOutcome =
  | { kind: "none" }
  | {
      kind: "compacted";
      transcript: Transcript;
      messagesBefore: number;
      messagesAfter: number;
      tokensBefore: number;
      tokensAfter: number;
      summaryChars: number;
    }
  | { kind: "failed"; reason: string; tokensBefore: number };

/** Compacts `t` when the request it makes would pass the threshold of `window`. */
export async function compactIfNeeded(
  t: Transcript,
  o: {
    system: string;
    tools: ToolSet;
    window: number;
    lang: Lang;
    summarize: Summarize;
    beforeSummary: (head: readonly ModelMessage[]) => Promise<void>;
  },
): Promise<CompactionOutcome> {
  const view = viewOf(t, o.lang);
  const tokensBefore = requestTokens(o.system, o.tools, view);
  if (tokensBefore <= compactionThreshold(o.window)) return { kind: "none" };
  // The tail keeps ≤ 20K tokens, and never more than half of what the window allows (small windows).
  const start = selectTailStart(
    t.messages,
    messageTokens,
    Math.min(TAIL_MAX_TOKENS, Math.floor(compactionThreshold(o.window) / 2)),
  );
  if (start === null) return { kind: "none" };
  const head = t.messages.slice(0, start);
  try {
    await o.beforeSummary(head);
    const summary = (await o.summarize(head, t.summary, o.lang)).trim().slice(0, SUMMARY_MAX_CHARS);
    if (summary === "") throw new Error("the summary came back empty");
    const transcript: Transcript = { summary, coveredCount: t.coveredCount + start, messages: t.messages.slice(start) };
    const after = viewOf(transcript, o.lang);
    return {
      kind: "compacted",
      transcript,
      messagesBefore: view.length,
      messagesAfter: after.length,
      tokensBefore,
      tokensAfter: requestTokens(o.system, o.tools, after),
      summaryChars: summary.length,
    };
  } catch (error) {
    return { kind: "failed", reason: error instanceof Error ? error.message : String(error), tokensBefore };
  }
}
