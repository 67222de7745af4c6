/**
 * Summaries for compaction: by the model (≤ 500 characters, what matters for continuing the
 * research), or — for the offline rule model — extractive: the user's asks and the tools used.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText, type ModelMessage } from "ai";
import type { Lang } from "../errors";
import { fromSdkUsage, type UsageSink } from "../usage";
import type { Summarize } from "./compaction";
import { wireMessage } from "./tokens";

const INSTRUCTIONS: Record<Lang, string> = {
  zh: "[compaction] 把下面的对话压缩成不超过 500 字的摘要，供后续继续研究使用：保留用户的问题与偏好、已分析的股票代码与关键结论（阶段、事件、价位、止损）、未完成的事项。不要编造。只输出摘要。",
  en: "[compaction] Compress the conversation below into a summary of at most 500 characters for continuing the research: keep the user's questions and preferences, the symbols analysed with key conclusions (phase, events, levels, stops) and open items. Do not invent. Output only the summary.",
};

function render(head: readonly ModelMessage[], previous: string | null): string {
  const lines = head.map((m) => wireMessage(m).slice(0, 4_000));
  return [previous ? `[earlier summary] ${previous}` : "", ...lines].filter(Boolean).join("\n").slice(0, 60_000);
}

/** A summarizer backed by a model (the turn's active one); each call's usage goes to `onUsage`. */
export function modelSummarizer(model: LanguageModelV4, signal: AbortSignal, onUsage?: UsageSink): Summarize {
  return async (head, previous, lang) => {
    const result = await generateText({
      model,
      system: INSTRUCTIONS[lang],
      messages: [{ role: "user", content: render(head, previous) }],
      maxRetries: 0,
      abortSignal: signal,
    });
    onUsage?.(fromSdkUsage(result.totalUsage ?? result.usage));
    return result.text;
  };
}

function textOf(m: ModelMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join(" ");
}

/** The offline summary: the user's requests (first sentence each) and the tools that answered. */
export const extractiveSummarizer: Summarize = async (head, previous, lang) => {
  const asks = head
    .filter((m) => m.role === "user")
    .map(
      (m) =>
        textOf(m)
          .replace(/\s+/g, " ")
          .split(/(?<=[。！？.!?])\s*/)[0]
          ?.slice(0, 80) ?? "",
    )
    .filter(Boolean);
  const tools = new Set<string>();
  for (const m of head)
    if (m.role === "tool") for (const p of m.content) if (p.type === "tool-result") tools.add(p.toolName);
  const parts = [
    previous ?? "",
    lang === "zh" ? `用户问过：${asks.join("；")}` : `The user asked: ${asks.join("; ")}`,
    tools.size > 0
      ? lang === "zh"
        ? `用过的工具：${[...tools].join("、")}`
        : `Tools used: ${[...tools].join(", ")}`
      : "",
  ];
  return parts.filter(Boolean).join("\n");
};
