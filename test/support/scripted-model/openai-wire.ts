/**
 * The OpenAI chat-completions wire format of the scripted model (test support): the request shapes
 * it accepts, the token estimate it reports when a script gives no usage, and the encoding of a
 * scripted reply as one JSON completion or as streamed `chat.completion.chunk` payloads.
 */
import type { ScriptedReplyFields } from "./script.ts";

/** One message of a chat-completions request, as the client sent it (loosely typed; untrusted). */
export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string; [field: string]: unknown }> | null;
  reasoning_content?: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [field: string]: unknown;
}

/** A tool definition in a chat-completions request. */
export interface ChatTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown; strict?: boolean };
}

/** A chat-completions request body, as the client sent it (loosely typed; untrusted). */
export interface ChatRequestBody {
  model?: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  temperature?: number;
  [field: string]: unknown;
}

/** Characters per streamed content fragment when a reply does not set `chunkSize`. */
export const DEFAULT_CHUNK_SIZE = 8;

/**
 * Rough token estimate used when a script doesn't give usage, shaped like real BPE tokenizers on
 * mixed text: one token per CJK character, one per four other characters.
 * @param text any string
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(/[\u3000-\u9fff\uff00-\uffef]/g)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * The `prompt_tokens` the server reports when a response doesn't script it: `estimateTokens` over
 * the JSON of the messages and the tools exactly as they arrived on the wire.
 * Deterministic, so tests can compare it with the app's own estimate.
 * @param body a chat-completions request body
 */
export function estimatePromptTokens(body: Pick<ChatRequestBody, "messages" | "tools">): number {
  const tools = body.tools === undefined ? "" : JSON.stringify(body.tools);
  return estimateTokens(JSON.stringify(body.messages) + tools);
}

interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

interface WireToolCall {
  id: string;
  name: string;
  arguments: string;
}

function wireToolCalls(reply: ScriptedReplyFields, seq: number): WireToolCall[] {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${seq}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function computeUsage(reply: ScriptedReplyFields, body: ChatRequestBody, calls: WireToolCall[]): OpenAIUsage {
  const scripted = reply.usage ?? {};
  const prompt = scripted.prompt ?? estimatePromptTokens(body);
  const completionChars =
    (reply.reasoning ?? "").length +
    (reply.text ?? "").length +
    calls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const completion = scripted.completion ?? Math.ceil(completionChars / 4);
  const usage: OpenAIUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  if (scripted.cached !== undefined) usage.prompt_tokens_details = { cached_tokens: scripted.cached };
  const reasoning =
    scripted.reasoning ?? (reply.reasoning ? Math.min(completion, estimateTokens(reply.reasoning)) : undefined);
  if (reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

function finishReasonOf(reply: ScriptedReplyFields): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
}

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** Splits tool arguments into at least two fragments when possible, so clients must reassemble them. */
function splitArguments(text: string, size: number): string[] {
  if (text.length < 2) return text.length === 0 ? [] : [text];
  return split(text, Math.min(size, Math.ceil(text.length / 2)));
}

/** What every chunk of one completion repeats: its id, creation time and model. */
export interface ChunkContext {
  id: string;
  created: number;
  model: string;
}

type Delta = Record<string, unknown>;

function chunk(ctx: ChunkContext, delta: Delta, finishReason: string | null = null): string {
  return JSON.stringify({
    id: ctx.id,
    object: "chat.completion.chunk",
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: "fp_scripted",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
}

/** Builds the SSE `data:` payloads (without the `data: ` prefix) for a streamed reply, ending with `[DONE]`. */
export function streamPayloads(
  reply: ScriptedReplyFields,
  body: ChatRequestBody,
  ctx: ChunkContext,
  seq: number,
): string[] {
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const calls = wireToolCalls(reply, seq);
  const payloads: string[] = [chunk(ctx, { role: "assistant", content: "" })];
  for (const part of split(reply.reasoning ?? "", size)) {
    payloads.push(chunk(ctx, { content: null, reasoning_content: part }));
  }
  for (const part of split(reply.text ?? "", size)) payloads.push(chunk(ctx, { content: part }));
  calls.forEach((call, index) => {
    payloads.push(
      chunk(ctx, {
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const part of splitArguments(call.arguments, size)) {
      payloads.push(chunk(ctx, { tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  payloads.push(chunk(ctx, {}, finishReasonOf(reply)));
  if (body.stream_options?.include_usage === true) {
    payloads.push(
      JSON.stringify({
        id: ctx.id,
        object: "chat.completion.chunk",
        created: ctx.created,
        model: ctx.model,
        system_fingerprint: "fp_scripted",
        choices: [],
        usage: computeUsage(reply, body, calls),
      }),
    );
  }
  payloads.push("[DONE]");
  return payloads;
}

/** The JSON body of a non-streamed completion for a reply. */
export function completionBody(
  reply: ScriptedReplyFields,
  body: ChatRequestBody,
  ctx: ChunkContext,
  seq: number,
): string {
  const calls = wireToolCalls(reply, seq);
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null };
  if (reply.reasoning !== undefined) message["reasoning_content"] = reply.reasoning;
  if (calls.length > 0) {
    message["tool_calls"] = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return JSON.stringify({
    id: ctx.id,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: "fp_scripted",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(reply) }],
    usage: computeUsage(reply, body, calls),
  });
}

/** Whether a parsed body is a chat request (an object with a `messages` array). */
export function isChatBody(value: unknown): value is ChatRequestBody {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { messages?: unknown }).messages)
  );
}
