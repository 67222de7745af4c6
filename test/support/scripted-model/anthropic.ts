/**
 * Anthropic Messages protocol for the scripted model server (test support): `POST /v1/messages`
 * answered as Anthropic's streaming SSE (`message_start`, `content_block_*`, `message_delta`,
 * `message_stop`) or one JSON message, with a prompt cache emulated the way Anthropic documents it:
 * each `cache_control` breakpoint caches the prefix up to it (tools → system → messages); a later
 * request whose prefix up to a breakpoint was seen before reads it (`cache_read_input_tokens`),
 * otherwise the prefix up to its last breakpoint is written (`cache_creation_input_tokens`).
 *
 * Only Node built-ins; erasable TypeScript so Node 22 runs it directly.
 */
import type { ScriptedReplyFields } from "./script.ts";

/** A Messages request body, as the client sent it (loosely typed; untrusted). */
export interface AnthropicRequestBody {
  model?: string;
  max_tokens?: number;
  system?: string | Array<{ type: string; text?: string; cache_control?: unknown; [field: string]: unknown }>;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string; cache_control?: unknown; [field: string]: unknown }>;
  tool_choice?: unknown;
  stream?: boolean;
  [field: string]: unknown;
}

/** The usage Anthropic reports, cache fields included. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

type Block = { at: string; value: unknown; breakpoint: boolean };

function strip(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "cache_control"));
}

/** The request as Anthropic caches it: tools, then system blocks, then message content blocks, in order. */
function blocksOf(body: AnthropicRequestBody): Block[] {
  const blocks: Block[] = [];
  for (const tool of body.tools ?? [])
    blocks.push({ at: "tool", value: strip(tool), breakpoint: tool.cache_control !== undefined });
  const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? []);
  for (const part of system)
    blocks.push({
      at: "system",
      value: strip(part),
      breakpoint: "cache_control" in part && part.cache_control !== undefined,
    });
  for (const message of body.messages) {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const part of Array.isArray(content) ? content : []) {
      const marked = typeof part === "object" && part !== null && "cache_control" in part;
      blocks.push({ at: message.role, value: strip(part), breakpoint: marked });
    }
  }
  return blocks;
}

/** An emulated prompt cache: remembers the prefixes requests marked with breakpoints. */
export class PromptCache {
  private readonly seen = new Set<string>();

  /**
   * Reads and writes the cache for one request; returns the input-side usage. As Anthropic does, a
   * read may hit at any block boundary up to the last breakpoint (within 20 blocks of it), not only at
   * this request's own breakpoints; only breakpoint prefixes are written.
   */
  account(body: AnthropicRequestBody, estimate: (text: string) => number): Omit<AnthropicUsage, "output_tokens"> {
    const blocks = blocksOf(body);
    const prefix: unknown[] = [];
    const boundaries: { key: string; total: number; breakpoint: boolean }[] = [];
    let total = 0;
    for (const block of blocks) {
      prefix.push([block.at, block.value]);
      total += estimate(JSON.stringify(block.value));
      boundaries.push({ key: JSON.stringify(prefix), total, breakpoint: block.breakpoint });
    }
    const marks = boundaries.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = 0;
    for (const mark of marks)
      for (let i = mark; i >= Math.max(0, mark - 20); i--) {
        const b = boundaries[i];
        if (b && this.seen.has(b.key)) {
          read = Math.max(read, b.total);
          break;
        }
      }
    const last = marks.length > 0 ? (boundaries[marks[marks.length - 1] ?? 0]?.total ?? 0) : 0;
    const written = Math.max(0, last - read);
    for (const mark of marks) this.seen.add(boundaries[mark]?.key ?? "");
    return {
      input_tokens: total - read - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
    };
  }

  /** Forgets every cached prefix. */
  clear(): void {
    this.seen.clear();
  }
}

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

function stopReason(reply: ScriptedReplyFields): string {
  switch (reply.finishReason) {
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    case "tool_calls":
      return "tool_use";
    case "stop":
      return "end_turn";
    default:
      return (reply.toolCalls?.length ?? 0) > 0 ? "tool_use" : "end_turn";
  }
}

function toolUses(reply: ScriptedReplyFields, seq: number) {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `toolu_${seq}_${i}`,
    name: call.name,
    json: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function outputTokens(reply: ScriptedReplyFields, seq: number): number {
  const chars =
    (reply.reasoning ?? "").length +
    (reply.text ?? "").length +
    toolUses(reply, seq).reduce((n, t) => n + t.name.length + t.json.length, 0);
  return reply.usage?.completion ?? Math.ceil(chars / 4);
}

/** One SSE event of the Messages stream: its `event:` name and JSON `data:`. */
export interface AnthropicEvent {
  event: string;
  data: unknown;
}

/** The streamed events of a reply, `message_start` … `message_stop`. */
export function anthropicStreamEvents(
  reply: ScriptedReplyFields,
  ctx: { id: string; model: string; seq: number; chunkSize: number },
  input: Omit<AnthropicUsage, "output_tokens">,
): AnthropicEvent[] {
  const events: AnthropicEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: ctx.id,
          type: "message",
          role: "assistant",
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...input, output_tokens: 1 },
        },
      },
    },
  ];
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: start } });
    for (const delta of deltas)
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  };
  if (reply.reasoning)
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...split(reply.reasoning, ctx.chunkSize).map((thinking) => ({ type: "thinking_delta", thinking })),
      { type: "signature_delta", signature: `sig-scripted-${ctx.seq}` },
    ]);
  if (reply.text)
    block(
      { type: "text", text: "" },
      split(reply.text, ctx.chunkSize).map((text) => ({ type: "text_delta", text })),
    );
  for (const use of toolUses(reply, ctx.seq))
    block(
      { type: "tool_use", id: use.id, name: use.name, input: {} },
      split(use.json, Math.max(1, Math.min(ctx.chunkSize, Math.ceil(use.json.length / 2)))).map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      })),
    );
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: outputTokens(reply, ctx.seq) },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/** The non-streaming answer: one Messages JSON object. */
export function anthropicMessage(
  reply: ScriptedReplyFields,
  ctx: { id: string; model: string; seq: number },
  input: Omit<AnthropicUsage, "output_tokens">,
): unknown {
  const content: unknown[] = [];
  if (reply.reasoning)
    content.push({ type: "thinking", thinking: reply.reasoning, signature: `sig-scripted-${ctx.seq}` });
  if (reply.text) content.push({ type: "text", text: reply.text });
  for (const use of toolUses(reply, ctx.seq)) {
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(use.json);
    } catch {
      parsed = {};
    }
    content.push({ type: "tool_use", id: use.id, name: use.name, input: parsed });
  }
  return {
    id: ctx.id,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { ...input, output_tokens: outputTokens(reply, ctx.seq) },
  };
}

/** Anthropic's error envelope for a status. */
export function anthropicErrorBody(status: number, message: string): unknown {
  const type =
    status === 401
      ? "authentication_error"
      : status === 403
        ? "permission_error"
        : status === 404
          ? "not_found_error"
          : status === 429
            ? "rate_limit_error"
            : status === 529
              ? "overloaded_error"
              : status >= 500
                ? "api_error"
                : "invalid_request_error";
  return { type: "error", error: { type, message } };
}
