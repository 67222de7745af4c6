/** Turns tool outcomes into the model's transcript: one tool message answering every call of a round. */
import type { ModelMessage } from "ai";
import type { FlushMessage } from "../ports/memory-flush";
import type { SessionLog } from "./session-log";
import type { ToolOutcome } from "./tool-executor";

type ToolResultOutput = Extract<
  Extract<ModelMessage, { role: "tool" }>["content"][number],
  { type: "tool-result" }
>["output"];

function toOutput(o: ToolOutcome): ToolResultOutput {
  if (o.kind === "ok") return { type: "json", value: (o.output ?? null) as never };
  if (o.kind === "denied") return { type: "execution-denied", reason: o.reason };
  return { type: "error-json", value: { error: { code: o.code, message: o.message } } };
}

/** The tool message for a round's outcomes (errors as `{ error: { code, message } }`, the model reads them). */
export function toolResultMessage(outcomes: readonly ToolOutcome[]): ModelMessage {
  return {
    role: "tool",
    content: outcomes.map((o) => ({
      type: "tool-result" as const,
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      output: toOutput(o),
    })),
  };
}

/** Drops reasoning from earlier turns' assistant messages (kept only within the turn that produced it). */
export function withoutReasoning(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.map((m) =>
    m.role === "assistant" && Array.isArray(m.content)
      ? { ...m, content: m.content.filter((p) => p.type !== "reasoning") }
      : m,
  );
}

/** A model message as plain text for the memory flush (tool results as JSON text). */
export function toFlushMessage(m: ModelMessage): FlushMessage {
  if (typeof m.content === "string") return { role: m.role, text: m.content };
  const text = m.content
    .map((p) => {
      if (p.type === "text") return p.text;
      if (p.type === "tool-result") return JSON.stringify("value" in p.output ? p.output.value : p.output);
      if (p.type === "tool-call") return `[${p.toolName}] ${JSON.stringify(p.input)}`;
      return "";
    })
    .filter(Boolean)
    .join("\n");
  return { role: m.role, text };
}

function plainText(m: ModelMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** The text of the last user message (the question of the turn). */
export function lastUserText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === "user") return plainText(messages[i] as ModelMessage);
  return "";
}

/** The texts of the last few user/assistant messages before the current question (for follow-ups). */
export function recentTexts(messages: readonly ModelMessage[], count = 6): string[] {
  return messages
    .slice(0, -1)
    .filter((m) => m.role === "user" || m.role === "assistant")
    .slice(-count)
    .map(plainText);
}

/**
 * The turn's question as the model sees it: the turn's context (date, matched hints) and recalled
 * memories in front of it. Only the view; storage keeps the text.
 */
export function withTurnContext(
  question: ModelMessage,
  extra: { context?: string | undefined; memories?: string | undefined },
): ModelMessage {
  const text = plainText(question);
  const blocks: string[] = [];
  if (extra.context) blocks.push(`<turn-context>\n${extra.context}\n</turn-context>`);
  if (extra.memories) blocks.push(`<relevant-memories>\n${extra.memories}\n</relevant-memories>`);
  if (blocks.length === 0) return question;
  return { role: "user", content: `${blocks.join("\n")}\n<current-user-message>\n${text}\n</current-user-message>` };
}

/** A turn's transcript for the model: messages after the compaction summary (reasoning kept only for this turn). */
export function turnTranscript(
  log: Pick<SessionLog, "modelMessages" | "meta">,
  turnId: string,
): { history: ModelMessage[]; summary?: { text: string; coveredCount: number } } {
  const rows = log.modelMessages();
  const all = rows.map((r) => (r.turnId === turnId ? r.message : (withoutReasoning([r.message])[0] ?? r.message)));
  const meta = log.meta();
  const covered = Math.min(meta?.compactedThrough ?? 0, all.length);
  if (!meta?.compactionSummary || covered === 0) return { history: all };
  return { history: all.slice(covered), summary: { text: meta.compactionSummary, coveredCount: covered } };
}
