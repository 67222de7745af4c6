/**
 * Keeping the model's view small, without touching what is stored:
 * - stale results: from round 2 on, tool results of earlier
 *   rounds longer than 800 characters become schema-aware summaries (keys taken only from what the
 *   tool's output schema declares and the result actually holds); the latest round stays whole;
 * - a last resort when one message alone overflows the window: its text is cut with a notice.
 */
import type { ModelMessage } from "ai";
import { textTokens, wireMessage } from "./tokens";

/** Earlier-round results longer than this are summarised (characters). */
export const SHRINK_THRESHOLD = 800;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The summary of one value: scalars kept (long strings cut), arrays as counts plus a first item, depth ≤ 2. */
function summarizeValue(value: unknown, allowed: ReadonlySet<string> | undefined, depth: number): Json | undefined {
  if (value === null || typeof value === "boolean" || typeof value === "number") return value;
  if (typeof value === "string") return value.length > 120 ? `${value.slice(0, 117)}…` : value;
  if (Array.isArray(value)) {
    if (depth >= 2) return `[${value.length} items]`;
    const first = value.length > 0 ? summarizeValue(value[0], undefined, depth + 1) : undefined;
    return first === undefined ? `[${value.length} items]` : { count: value.length, first };
  }
  if (isRecord(value)) {
    if (depth >= 2) return `{${Object.keys(value).length} fields}`;
    const out: { [key: string]: Json } = {};
    for (const [key, v] of Object.entries(value)) {
      if (allowed && !allowed.has(key)) continue;
      const s = summarizeValue(v, undefined, depth + 1);
      if (s !== undefined) out[key] = s;
    }
    return out;
  }
  return undefined;
}

/** Summarises a tool output using only keys its schema declares (`schemaKeys`), never others. */
export function summarizeOutput(output: unknown, schemaKeys: ReadonlySet<string> | undefined): Json {
  const body = summarizeValue(output, schemaKeys, 0) ?? null;
  return isRecord(body) ? { summarized: true, ...body } : { summarized: true, value: body };
}

/** Shrinks tool results of every round but the latest in `messages` (a view; inputs are not mutated). */
export function shrinkStaleResults(
  messages: readonly ModelMessage[],
  keysOf: (toolName: string) => ReadonlySet<string> | undefined,
): ModelMessage[] {
  let lastTool = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "tool") {
      lastTool = i;
      break;
    }
    if (messages[i]?.role === "user") break;
  }
  return messages.map((m, i) => {
    if (m.role !== "tool" || i === lastTool) return m;
    const content = m.content.map((p) => {
      if (p.type !== "tool-result" || p.output.type !== "json") return p;
      const size = JSON.stringify(p.output.value).length;
      if (size <= SHRINK_THRESHOLD) return p;
      return {
        ...p,
        output: {
          type: "json" as const,
          value: { ...(summarizeOutput(p.output.value, keysOf(p.toolName)) as object), originalChars: size },
        },
      };
    });
    return { ...m, content };
  });
}

/**
 * When the view still overflows `budget` tokens (e.g. one message larger than the whole window),
 * cuts the text of the largest messages with a notice instead of sending a request the provider
 * must reject.
 */
export function fitToBudget(
  messages: readonly ModelMessage[],
  budget: number,
): { messages: ModelMessage[]; cut: number } {
  const out = [...messages];
  let total = out.reduce((s, m) => s + textTokens(wireMessage(m)), 0);
  const cutIndices = new Set<number>();
  while (total > budget && out.length > 0) {
    let largest = 0;
    for (let i = 1; i < out.length; i++)
      if (wireMessage(out[i] as ModelMessage).length > wireMessage(out[largest] as ModelMessage).length) largest = i;
    const message = out[largest] as ModelMessage;
    const before = textTokens(wireMessage(message));
    const keepChars = Math.max(200, Math.floor(((budget / Math.max(1, out.length)) * 4) / 2));
    const notice = (n: number) => `\n[… ${n} characters cut to fit the model's context window]`;
    const shorten = (text: string) =>
      text.length > keepChars ? text.slice(0, keepChars) + notice(text.length - keepChars) : text;
    let next: ModelMessage;
    if (typeof message.content === "string") next = { ...message, content: shorten(message.content) } as ModelMessage;
    else if (message.role === "tool")
      next = {
        ...message,
        content: message.content.map((p) =>
          p.type === "tool-result"
            ? {
                ...p,
                output: {
                  type: "text" as const,
                  value: shorten(JSON.stringify("value" in p.output ? p.output.value : p.output)),
                },
              }
            : p,
        ),
      };
    else
      next = {
        ...message,
        content: message.content.map((p) => (p.type === "text" ? { ...p, text: shorten(p.text) } : p)),
      } as ModelMessage;
    const after = textTokens(wireMessage(next));
    if (after >= before) break;
    out[largest] = next;
    total -= before - after;
    cutIndices.add(largest);
  }
  return { messages: out, cut: cutIndices.size };
}
