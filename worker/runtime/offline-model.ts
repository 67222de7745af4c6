/**
 * The offline rule model: a deterministic AI SDK language model (specification v4), so the runtime
 * cannot tell it from a real provider. It reads the last user message, calls the tools the intent
 * rules pick (only tools offered in the request), then answers from their results with a template.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { languageOf } from "./errors";
import { composeAnswer, composeHelp, type ObservedResult } from "./offline/answers";
import { planCalls, type VisibleTool } from "./offline/intents";

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

/** Decides the reply for a prompt: tool calls, or a final text. */
export function decide(
  options: LanguageModelV4CallOptions,
): { text: string } | { calls: { toolName: string; input: string }[] } {
  const index = lastUserIndex(options.prompt);
  const text = userText(options.prompt, index);
  const lang = languageOf(text);
  const tools = visibleTools(options);
  const results = resultsSince(options.prompt, index);
  // A loaded skill: follow its instructions by planning the tools they name (once).
  const skill =
    results.length === 1 && results[0]?.toolName === "execute_skill" && !results[0].isError
      ? results[0].output
      : undefined;
  if (skill && typeof skill === "object" && "instructions" in skill) {
    const planned = planCalls(String((skill as { instructions: unknown }).instructions), tools).calls.filter(
      (c) => c.toolName !== "execute_skill",
    );
    if (planned.length > 0)
      return { calls: planned.map((c) => ({ toolName: c.toolName, input: JSON.stringify(c.input) })) };
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
    return {
      calls: [{ toolName: "execute_skill", input: JSON.stringify({ name: slash[1], user_input: slash[2] ?? "" }) }],
    };
  }
  // A finished background task: relay its report; never plan tools from the notification's words.
  const notice = text.match(/<task-notification[^>]*>\n?([\s\S]*?)\n?<\/task-notification>/);
  if (text.startsWith("[SYSTEM NOTIFICATION") && notice)
    return { text: `${notice[1] ?? ""}\n\n${composeAnswer([], lang).trim()}` };
  const { calls, missing } = planCalls(text, tools);
  if (calls.length > 0) return { calls: calls.map((c) => ({ toolName: c.toolName, input: JSON.stringify(c.input) })) };
  return {
    text: composeHelp(
      lang,
      tools.map((t) => t.name),
      missing,
    ),
  };
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
