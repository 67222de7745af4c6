/**
 * Token estimate of everything a request sends: system prompt, tool schemas, messages, tool results
 * and reasoning kept in history, measured on the shape the OpenAI-compatible wire format gives them
 * (tool arguments and results are JSON strings inside JSON). CJK-aware: one token per CJK character,
 * one per four other characters — close to real BPE tokenizers on mixed Chinese/English text.
 */
import type { ModelMessage, ToolSet } from "ai";

const CJK = /[\u3000-\u9fff\uff00-\uffef]/g;

/** Tokens of a piece of text. */
export function textTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function asWireString(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/** The message roughly as it goes over the wire (JSON text). */
export function wireMessage(message: ModelMessage): string {
  if (typeof message.content === "string") return JSON.stringify({ role: message.role, content: message.content });
  if (message.role === "tool") {
    return message.content
      .map((p) =>
        p.type === "tool-result"
          ? JSON.stringify({
              role: "tool",
              tool_call_id: p.toolCallId,
              content: asWireString("value" in p.output ? p.output.value : p.output),
            })
          : "",
      )
      .join("");
  }
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: unknown[] = [];
  for (const part of message.content) {
    if (part.type === "text") text.push(part.text);
    else if (part.type === "reasoning") reasoning.push(part.text);
    else if (part.type === "tool-call")
      calls.push({
        id: part.toolCallId,
        type: "function",
        function: { name: part.toolName, arguments: asWireString(part.input) },
      });
  }
  return JSON.stringify({
    role: message.role,
    content: text.join(""),
    ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("") } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  });
}

const messageCache = new WeakMap<ModelMessage, number>();
const toolSetCache = new WeakMap<ToolSet, number>();

/** Tokens of one message (memoised per message object: transcripts are append-only). */
export function messageTokens(message: ModelMessage): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  const tokens = textTokens(wireMessage(message));
  messageCache.set(message, tokens);
  return tokens;
}

/** Tokens of the tool schemas as sent (`{ type: "function", function: { name, description, parameters } }`). */
export function toolSetTokens(tools: ToolSet): number {
  const cached = toolSetCache.get(tools);
  if (cached !== undefined) return cached;
  const wire = Object.entries(tools).map(([name, t]) => ({
    type: "function",
    function: {
      name,
      description: t.description,
      parameters:
        "inputSchema" in t && t.inputSchema && typeof t.inputSchema === "object" && "jsonSchema" in t.inputSchema
          ? t.inputSchema.jsonSchema
          : {},
    },
  }));
  const tokens = textTokens(JSON.stringify(wire));
  toolSetCache.set(tools, tokens);
  return tokens;
}

/** Everything one request sends. */
export function requestTokens(system: string, tools: ToolSet, messages: readonly ModelMessage[]): number {
  const systemTokens = textTokens(JSON.stringify({ role: "system", content: system }));
  return systemTokens + toolSetTokens(tools) + messages.reduce((sum, m) => sum + messageTokens(m), 0);
}
