/**
 * The offline rule model: a deterministic AI SDK language model (specification v4), so the runtime
 * cannot tell it from a real provider. It reads the last user message, calls the tools the intent
 * rules pick (only tools offered in the request), then answers from what their results mean, in the
 * person's language (recalled memories do not decide it). Skills call the tool their instructions
 * name; each deep-dive pipeline step does its own part (prices, structure, events, risk, summary).
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { extractByRules } from "../memory/extract-rules";
import { languageOf, languageSignal, type Lang } from "./errors";
import { statedReplyLanguage } from "./prompts/system";
import { md } from "./offline/answer-format";
import { composeAnswer, composeHelp, composeMemoryAnswer, LABEL, type ObservedResult } from "./offline/answers";
import { extractSymbol, fitInput, inputFor, memoryIntent, planCalls, type VisibleTool } from "./offline/intents";

/** The model id reported for the offline model. */
export const OFFLINE_MODEL_ID = "offline-rules";

function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]?.role === "user") return i;
  return -1;
}

function userText(prompt: LanguageModelV4Prompt, index: number): string {
  const message = prompt[index];
  if (!message || message.role !== "user") return "";
  return message.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
}

function resultsSince(prompt: LanguageModelV4Prompt, index: number): ObservedResult[] {
  const out: ObservedResult[] = [];
  for (const message of prompt.slice(index + 1)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const o = part.output;
      const isError = o.type === "error-text" || o.type === "error-json" || o.type === "execution-denied";
      const value =
        o.type === "execution-denied"
          ? { error: { message: o.reason ?? "denied" } }
          : "value" in o
            ? o.value
            : undefined;
      out.push({ toolName: part.toolName, output: value, isError });
    }
  }
  return out;
}

function visibleTools(options: LanguageModelV4CallOptions): VisibleTool[] {
  return (options.tools ?? []).flatMap((t) => {
    if (t.type !== "function") return [];
    const schema = t.inputSchema as { properties?: Record<string, unknown> };
    return [{ name: t.name, properties: schema.properties ?? {} }];
  });
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/**
 * The user's own words and the memories recalled for them: the runtime wraps the question in
 * `<current-user-message>` behind a `<turn-context>` block (date, hints) and/or `<relevant-memories>`
 * (transcript.ts `withTurnContext`); only the question is the person's, so only it is read for intents.
 */
export function splitUserText(text: string): { question: string; memories: string[] } {
  const wrapped = text.match(/<current-user-message>\n?([\s\S]*?)\n?<\/current-user-message>([\s\S]*)$/);
  if (!wrapped) return { question: text, memories: [] };
  const block = text.match(/<relevant-memories>\n?([\s\S]*?)\n?<\/relevant-memories>/);
  const memories = (block?.[1] ?? "")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) =>
      l
        .slice(2)
        .replace(/\s*\|\s*source:.*$/, "")
        .replace(/^\[[^\]]*\]\s*/, ""),
    );
  return { question: `${wrapped[1] ?? ""}${wrapped[2] ?? ""}`, memories };
}

const NOTICE = "[SYSTEM NOTIFICATION";

/** The language of the conversation: the latest message the person wrote (notifications are not theirs). */
function conversationLang(prompt: LanguageModelV4Prompt, from: number): Lang {
  for (let i = from; i >= 0; i--) {
    const question = splitUserText(userText(prompt, i)).question;
    if (question && !question.startsWith(NOTICE)) return languageOf(question);
  }
  return "en";
}

function systemText(prompt: LanguageModelV4Prompt): string {
  return prompt
    .filter((m) => m.role === "system")
    .map((m) => (m.role === "system" ? m.content : ""))
    .join("\n");
}

type Decision = { text: string } | { calls: { toolName: string; input: string }[] };
const call = (toolName: string, input: Record<string, unknown>) => ({ toolName, input: JSON.stringify(input) });

/** Tools named in a skill's instructions, in the order they are first named (visible ones only). */
function namedTools(instructions: string, tools: readonly VisibleTool[]): string[] {
  return tools
    .map((t) => ({ name: t.name, at: instructions.search(new RegExp(`(?<![a-z_])${t.name}(?![a-z_])`)) }))
    .filter((x) => x.at >= 0 && x.name !== "execute_skill" && x.name !== "update_portfolio")
    .sort((a, b) => a.at - b.at)
    .map((x) => x.name);
}

const EVENT_MEANING: Record<string, { zh: string; en: string }> = {
  PS: { zh: "初步支撑：下跌中首次出现承接", en: "preliminary support: first buying into the decline" },
  SC: { zh: "抛售高潮：恐慌性抛盘被吸收", en: "selling climax: panic supply absorbed" },
  AR: { zh: "自动反弹：划定区间上沿", en: "automatic rally: marks the range top" },
  ST: { zh: "二次测试：缩量回测低点", en: "secondary test: the low retested on less supply" },
  Spring: { zh: "弹簧：跌破支撑后迅速收回", en: "spring: a break of support quickly reclaimed" },
  Test: { zh: "测试：低量确认供应枯竭", en: "test: low volume confirms supply is gone" },
  SOS: { zh: "强势信号：放量突破", en: "sign of strength: a break-out on volume" },
  LPS: { zh: "最后支撑点：回踩不破", en: "last point of support: a pull-back that holds" },
  BU: { zh: "回踩确认：突破后回到区间上沿之上", en: "back-up: holds above the old range top" },
  PSY: { zh: "初步供应：上涨中首次出现抛压", en: "preliminary supply: first selling into the advance" },
  BC: { zh: "买入高潮：追涨需求被派发", en: "buying climax: eager demand met by supply" },
  UT: { zh: "上冲回落：突破阻力后失败", en: "upthrust: a break of resistance that fails" },
  UTAD: { zh: "派发后上冲：区间末端的假突破", en: "upthrust after distribution: a late false break-out" },
  SOW: { zh: "弱势信号：放量跌破", en: "sign of weakness: a break-down on volume" },
  LPSY: { zh: "最后供应点：反弹无力", en: "last point of supply: a weak rally" },
};

/** A pipeline step's own part, from its instruction (`Step N — name:`). */
function pipelineStep(system: string): string | undefined {
  return system.match(/Step \d — (data check|structure|events|risk|summary):/)?.[1];
}

function earlierSections(question: string): { title: string; lines: string[] }[] {
  const at = question.indexOf("\n\nEarlier steps:\n");
  if (at < 0) return [];
  return question
    .slice(at + 17)
    .split(/^## /m)
    .filter(Boolean)
    .map((block) => {
      const [title = "", ...rest] = block.split("\n");
      return {
        title,
        lines: rest
          .map((l) => l.trim())
          .filter((l) => l !== "" && !l.startsWith("（离线") && !l.startsWith("(Offline")),
      };
    });
}

function stepDecision(
  step: string,
  question: string,
  lang: Lang,
  tools: readonly VisibleTool[],
  results: ObservedResult[],
): Decision {
  const own = question.split("\n\nEarlier steps:\n")[0] ?? question;
  const symbol = extractSymbol(own);
  const has = (name: string) => tools.some((t) => t.name === name);
  const T = (zh: string, en: string) => (lang === "zh" ? zh : en);
  if (results.length > 0) {
    const parts = step === "structure" ? (["structure", "events"] as const) : (["risk"] as const);
    return { text: composeAnswer(results, lang, new Set(parts)) };
  }
  if (step === "data check" && symbol && has("analyze_stock"))
    return { calls: [call("analyze_stock", { code: symbol, mode: "price", days: 30 })] };
  if (step === "structure" && symbol && has("analyze_stock"))
    return { calls: [call("analyze_stock", { code: symbol, mode: "diagnose" })] };
  if (step === "risk" && symbol) {
    const calls = [
      ...(has("analyze_stock") ? [call("analyze_stock", { code: symbol, mode: "diagnose" })] : []),
      ...(has("market_regime") ? [call("market_regime", {})] : []),
    ];
    if (calls.length > 0) return { calls };
  }
  const earlier = earlierSections(question);
  if (step === "events") {
    const structure = earlier.find((s) => s.title.startsWith("Structure"))?.lines ?? [];
    const events = structure.filter((l) => l.startsWith("- "));
    const triggers = structure.find((l) => /^(Triggers|触发信号)/.test(l));
    const lines = events.map((l) => {
      const type = l.slice(2).split(/\s/)[0] ?? "";
      const meaning = EVENT_MEANING[type.replace(/\\/g, "")]?.[lang];
      return meaning ? `${l} — ${meaning}` : l;
    });
    const body =
      lines.length > 0
        ? [
            T(
              "结构步骤读出的威科夫事件及其含义：",
              "The Wyckoff events the structure step read, and what each implies:",
            ),
            ...lines,
          ]
        : [T("结构步骤没有读出确认的威科夫事件。", "The structure step read no confirmed Wyckoff event.")];
    if (triggers) body.push(triggers);
    else body.push(T("没有待确认或已确认的触发信号。", "No pending or confirmed trigger."));
    return { text: `${body.join("\n")}\n\n${LABEL[lang]}` };
  }
  if (step === "summary") {
    const key = earlier.flatMap((s) =>
      s.lines
        .filter((l) =>
          /阶段|phase|交易区间|Trading range|健康度|Health|止损|Stops|市场状态|Market regime|数据来源|Source/.test(l),
        )
        .slice(0, 2),
    );
    const body =
      key.length > 0
        ? key.slice(0, 8)
        : [T("前面的步骤没有可总结的结果。", "The earlier steps left nothing to summarise.")];
    return {
      text: `${T("总结：", "Summary:")}\n${body.map((l) => (l.startsWith("- ") ? l : `- ${l}`)).join("\n")}\n\n${LABEL[lang]}`,
    };
  }
  return { text: composeHelp(lang) };
}

/** Decides the reply for a prompt: tool calls, or a final text. */
export function decide(options: LanguageModelV4CallOptions): Decision {
  const index = lastUserIndex(options.prompt);
  const raw = userText(options.prompt, index);
  const { question: text, memories } = splitUserText(raw);
  // The notice is the question inside the turn's context (a date block comes first).
  const isNotice = text.startsWith(NOTICE);
  const lang = isNotice
    ? (statedReplyLanguage(raw) ?? conversationLang(options.prompt, index - 1))
    : (languageSignal(text) ?? statedReplyLanguage(raw) ?? languageOf(text));
  const tools = visibleTools(options);
  const results = resultsSince(options.prompt, index);
  const step = pipelineStep(systemText(options.prompt));
  if (step) return stepDecision(step, text, lang, tools, results);
  // A loaded skill: call the tool its instructions name first, with input from the person's words.
  const skill =
    results.length === 1 && results[0]?.toolName === "execute_skill" && !results[0].isError
      ? results[0].output
      : undefined;
  if (skill && typeof skill === "object" && "instructions" in skill) {
    const instructions = String((skill as { instructions: unknown }).instructions);
    const userPart = text.replace(/^\s*\/[a-z0-9-]+\s*/, "");
    const first = namedTools(instructions, tools)[0];
    const tool = tools.find((t) => t.name === first);
    if (tool) return { calls: [call(tool.name, fitInput(tool, inputFor(tool.name, userPart)))] };
  }
  if (results.length > 0)
    return {
      text: composeAnswer(
        results.filter((r) => r.toolName !== "execute_skill" || results.length === 1),
        lang,
      ),
    };
  // "/name …" runs a skill (lazy loading, as a real model would).
  const slash = text.trim().match(/^\/([a-z0-9][a-z0-9-]{0,31})(?:\s+([\s\S]*))?$/);
  if (slash?.[1] && tools.some((t) => t.name === "execute_skill")) {
    return { calls: [call("execute_skill", { name: slash[1], user_input: slash[2] ?? "" })] };
  }
  // A finished background task: read its full result when possible, else relay the notice.
  const notice = text.match(/<task-notification[^>]*>\n?([\s\S]*?)\n?<\/task-notification>/);
  if (isNotice && notice) {
    const taskId = notice[1]?.match(/\b(task_[A-Za-z0-9_-]+)/)?.[1];
    if (taskId && tools.some((t) => t.name === "check_background_tasks"))
      return { calls: [call("check_background_tasks", { task_id: taskId })] };
    return { text: `${md(notice[1] ?? "")}\n\n${LABEL[lang]}` };
  }
  const remember = memoryIntent(text);
  if (remember) {
    const saving =
      remember === "save"
        ? extractByRules({ sessionId: "", user: { id: "", text }, assistant: undefined }).map((d) => d.content)
        : [];
    return { text: composeMemoryAnswer(lang, memories, saving, remember) };
  }
  const { calls } = planCalls(text, tools);
  if (calls.length > 0) return { calls: calls.map((c) => call(c.toolName, c.input)) };
  return { text: composeHelp(lang) };
}

/** Creates the offline model. */
export function createOfflineModel(): LanguageModelV4 {
  let callSeq = 0;
  return {
    specificationVersion: "v4",
    provider: "offline",
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const decision = decide(options);
      const input = tokens(JSON.stringify(options.prompt));
      if ("text" in decision) {
        return {
          content: [{ type: "text", text: decision.text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: usage(input, tokens(decision.text)),
          warnings: [],
        };
      }
      return {
        content: decision.calls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: `offline-${++callSeq}`,
          toolName: c.toolName,
          input: c.input,
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(input, tokens(JSON.stringify(decision.calls))),
        warnings: [],
      };
    },
    async doStream(options) {
      const decision = decide(options);
      const input = tokens(JSON.stringify(options.prompt));
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", modelId: OFFLINE_MODEL_ID },
      ];
      if ("text" in decision) {
        parts.push({ type: "text-start", id: "t0" });
        for (const piece of decision.text.match(/[\s\S]{1,24}/g) ?? [])
          parts.push({ type: "text-delta", id: "t0", delta: piece });
        parts.push({ type: "text-end", id: "t0" });
        parts.push({
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: usage(input, tokens(decision.text)),
        });
      } else {
        for (const call of decision.calls) {
          const id = `offline-${++callSeq}`;
          parts.push({ type: "tool-input-start", id, toolName: call.toolName });
          parts.push({ type: "tool-input-delta", id, delta: call.input });
          parts.push({ type: "tool-input-end", id });
          parts.push({ type: "tool-call", toolCallId: id, toolName: call.toolName, input: call.input });
        }
        parts.push({
          type: "finish",
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: usage(input, tokens(JSON.stringify(decision.calls))),
        });
      }
      const signal = options.abortSignal;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            if (signal?.aborted) return controller.error(signal.reason);
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
