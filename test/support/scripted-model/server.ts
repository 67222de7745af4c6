/**
 * Scripted OpenAI-compatible (and Anthropic Messages) model server (test support).
 *
 * Stands in for a real LLM at the network edge: speaks the OpenAI
 * chat-completions wire protocol (JSON and SSE streaming, DeepSeek-style
 * `reasoning_content`, streamed `tool_calls`, `usage`) over real HTTP, so the
 * app's real provider code (`@ai-sdk/openai-compatible`) can talk to it from
 * inside workerd or plain Node. Each chat-completions request consumes the
 * next scripted response (see `script.ts`) from a keyed queue: the first
 * registered key found as a substring of the request's messages, else the
 * default queue. An empty queue answers HTTP 500 "script exhausted …" so a
 * test fails loudly instead of hanging.
 *
 * Endpoints:
 * - `POST /v1/chat/completions`, `GET /v1/models`, `GET /v1/models/:id`
 * - `POST /v1/messages`: the same scripts answered in Anthropic's Messages protocol (`x-api-key`,
 *   streaming events, an emulated prompt cache over `cache_control` breakpoints; see `anthropic.ts`;
 *   replies and errors only — stalls, drops and malformed streams speak the OpenAI chunks)
 * - `POST /__script` `{ key?, responses }` append; `DELETE /__script` reset;
 *   `GET /__script` remaining queue sizes
 * - `GET /__requests?key=` recorded requests (`key=` empty = default queue);
 *   `DELETE /__requests` forget them
 *
 * Only Node built-ins; erasable TypeScript so Node 22 runs it directly.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import {
  anthropicErrorBody,
  anthropicMessage,
  anthropicStreamEvents,
  PromptCache,
  type AnthropicRequestBody,
} from "./anthropic.ts";
import { parseResponses } from "./script.ts";
import type { NormalizedResponse, ScriptedReplyFields, ScriptedResponse } from "./script.ts";

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

/** What the server did with a recorded request. */
export type RequestOutcome =
  | "reply"
  | "error"
  | "stall"
  | "malformed"
  | "drop"
  | "unauthorized"
  | "exhausted"
  | "bad-request";

/** A chat-completions request the server received. */
export interface RecordedRequest {
  /** 1-based arrival order across all keys. */
  seq: number;
  /** Which wire protocol the request spoke (`/v1/chat/completions` or `/v1/messages`). */
  protocol: "openai" | "anthropic";
  /** The queue key it matched, or `null` for the default queue. */
  key: string | null;
  method: string;
  path: string;
  /** Lower-cased request headers (e.g. `authorization`, `content-type`). */
  headers: Record<string, string>;
  /** Parsed JSON body, or `null` if it wasn't a valid chat request. */
  body: ChatRequestBody | null;
  /** The raw body text. */
  rawBody: string;
  /** How the server answered. */
  outcome: RequestOutcome;
  /** Becomes true if the client hung up before the response finished (live-updated; not set by drops or `close()`). */
  clientAborted: boolean;
}

/** Options for {@link startScriptedModel}. */
export interface ScriptedModelOptions {
  /** Port to listen on; 0 (default) picks a free port. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /**
   * When set, `/v1/*` requests need one of these keys — `Authorization: Bearer <key>` (OpenAI) or
   * `x-api-key: <key>` (Anthropic) — or get 401.
   */
  apiKey?: string | string[];
  /** Initial default-queue responses. */
  responses?: ScriptedResponse[];
  /** Model id listed by `/v1/models`; default `scripted`. Requests' `model` is always echoed. */
  model?: string;
  /** Called with a one-line summary of each chat request (for the CLI). */
  log?: (line: string) => void;
}

/** A running scripted model server. */
export interface ScriptedModel {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** The bound port. */
  port: number;
  /**
   * Appends responses to the queue for `key` (default queue when omitted).
   * Registering a key makes requests containing it use that queue from now on.
   * @throws ScriptValidationError when a response is malformed
   */
  push(responses: ScriptedResponse | ScriptedResponse[], key?: string): void;
  /** Clears all queues, keys and recorded requests. */
  reset(): void;
  /** Recorded chat requests: all when `key` is undefined, the default queue's for `null`, else that key's. */
  requests(key?: string | null): RecordedRequest[];
  /** Stops listening and destroys every open (including stalled) connection. */
  close(): Promise<void>;
}

const DEFAULT_MODEL = "scripted";
const DEFAULT_CHUNK_SIZE = 8;
const MAX_BODY_BYTES = 32 * 1024 * 1024;

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

interface ChunkContext {
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
function streamPayloads(reply: ScriptedReplyFields, body: ChatRequestBody, ctx: ChunkContext, seq: number): string[] {
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

function completionBody(reply: ScriptedReplyFields, body: ChatRequestBody, ctx: ChunkContext, seq: number): string {
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

/** OpenAI-style error body for a status, as real providers send it. */
function defaultErrorBody(status: number, model: string): { error: Record<string, unknown> } {
  switch (status) {
    case 400:
      return {
        error: {
          message: "Invalid request (scripted 400).",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      };
    case 401:
      return {
        error: {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      };
    case 403:
      return {
        error: {
          message: "Permission denied (scripted 403).",
          type: "permission_error",
          param: null,
          code: null,
        },
      };
    case 404:
      return {
        error: {
          message: `The model \`${model}\` does not exist or you do not have access to it.`,
          type: "invalid_request_error",
          param: null,
          code: "model_not_found",
        },
      };
    case 429:
      return {
        error: {
          message: "Rate limit reached for requests (scripted 429). Please try again later.",
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        },
      };
    case 503:
      return {
        error: {
          message: "The server is overloaded (scripted 503).",
          type: "server_error",
          param: null,
          code: "overloaded",
        },
      };
    default:
      return {
        error: {
          message:
            status >= 500
              ? `The server had an error while processing your request (scripted ${status}).`
              : `Scripted error ${status}.`,
          type: status >= 500 ? "server_error" : "invalid_request_error",
          param: null,
          code: null,
        },
      };
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on("data", (data: Buffer) => {
      total += data.length;
      if (total > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(data);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function isChatBody(value: unknown): value is ChatRequestBody {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { messages?: unknown }).messages)
  );
}

/** Collects every string found anywhere in the messages (content, text parts, tool arguments, …). */
function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

function describe(response: NormalizedResponse): string {
  if (response.kind === "error") return `error ${response.status}`;
  const { reply } = response;
  const parts: string[] = [];
  if (reply.reasoning) parts.push(`reasoning ${reply.reasoning.length}ch`);
  if (reply.text) parts.push(`text ${reply.text.length}ch`);
  if (reply.toolCalls?.length) parts.push(`tools ${reply.toolCalls.map((c) => c.name).join(",")}`);
  const suffix = parts.length > 0 ? ` (${parts.join(", ")})` : "";
  if (response.kind === "stall") return `stall after ${response.afterChunks} chunks${suffix}`;
  if (response.kind === "drop") return `drop connection after ${response.afterChunks} chunks${suffix}`;
  return `${response.kind}${suffix}`;
}

/**
 * Starts a scripted OpenAI-compatible model server.
 * @param opts port (default 0 = random free port), host (default 127.0.0.1), optional apiKey,
 *   initial default-queue responses, model id to list, and a log callback
 * @returns handle with the `/v1` base URL, queue controls, recorded requests and `close()`
 * @throws ScriptValidationError when `opts.responses` is malformed
 */
export async function startScriptedModel(opts: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const host = opts.host ?? "127.0.0.1";
  const listedModel = opts.model ?? DEFAULT_MODEL;
  const log = opts.log;
  let defaultQueue: NormalizedResponse[] = opts.responses ? parseResponses(opts.responses) : [];
  const keyed = new Map<string, NormalizedResponse[]>();
  let recorded: RecordedRequest[] = [];
  let seq = 0;
  const sockets = new Set<Socket>();
  const promptCache = new PromptCache();
  const keys = opts.apiKey === undefined ? undefined : new Set([opts.apiKey].flat());
  const keyOf = (req: IncomingMessage): string | undefined => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const header = req.headers["x-api-key"];
    return bearer ?? (typeof header === "string" ? header : undefined);
  };
  const pendingTimers = new Set<ReturnType<typeof setTimeout>>();
  let closingServer = false;

  const enqueue = (list: NormalizedResponse[], key?: string): void => {
    if (key === undefined) {
      defaultQueue.push(...list);
      return;
    }
    if (key.length === 0) throw new Error("scripted model: queue key must be non-empty");
    const queue = keyed.get(key);
    if (queue) queue.push(...list);
    else keyed.set(key, list);
  };

  const push = (responses: ScriptedResponse | ScriptedResponse[], key?: string): void => {
    enqueue(parseResponses(Array.isArray(responses) ? responses : [responses]), key);
  };

  const reset = (): void => {
    defaultQueue = [];
    keyed.clear();
    recorded = [];
    promptCache.clear();
  };

  // A key in the system prompt names the call's purpose (e.g. compaction) and decides first; then the
  // newest user message that names one (a later turn's marker wins over an earlier turn's still in the
  // history); then any message, as before.
  const resolveKey = (body: ChatRequestBody): string | null => {
    if (keyed.size === 0) return null;
    const find = (value: unknown): string | null => {
      const strings: string[] = [];
      collectStrings(value, strings);
      for (const key of keyed.keys()) if (strings.some((s) => s.includes(key))) return key;
      return null;
    };
    const role = (m: unknown) => (m as { role?: unknown }).role;
    const system = find([(body as { system?: unknown }).system, body.messages.filter((m) => role(m) === "system")]);
    if (system !== null) return system;
    const users = body.messages.filter((m) => role(m) === "user");
    for (let i = users.length - 1; i >= 0; i--) {
      const key = find(users[i]);
      if (key !== null) return key;
    }
    return find(body.messages);
  };

  /** Waits `ms`, resolving early if the response has gone away. */
  const pause = (ms: number, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0 || res.destroyed) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        res.off("close", onClose);
        resolve();
      }, ms);
      const onClose = (): void => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
        resolve();
      };
      pendingTimers.add(timer);
      res.once("close", onClose);
    });

  const write = (res: ServerResponse, text: string): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed || res.writableEnded) {
        resolve();
        return;
      }
      res.write(text, () => resolve());
    });

  const startSse = (res: ServerResponse): void => {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
  };

  /** Writes Anthropic's named SSE events (`event:` + `data:`), pausing `delayMs` before each one after the first. */
  const streamNamedEvents = async (
    res: ServerResponse,
    events: { event: string; data: unknown }[],
    delayMs: number,
  ): Promise<void> => {
    for (let i = 0; i < events.length; i++) {
      if (res.destroyed) return;
      if (i > 0) await pause(delayMs, res);
      const e = events[i] as { event: string; data: unknown };
      await write(res, `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
    }
  };

  /** Writes payloads as `data:` SSE events, pausing `delayMs` before each one after the first. */
  const streamEvents = async (res: ServerResponse, payloads: string[], delayMs: number): Promise<void> => {
    for (let i = 0; i < payloads.length; i++) {
      if (res.destroyed) return;
      if (i > 0) await pause(delayMs, res);
      await write(res, `data: ${payloads[i]}\n\n`);
    }
  };

  const serveChat = async (
    req: IncomingMessage,
    res: ServerResponse,
    rawBody: string,
    protocol: RecordedRequest["protocol"] = "openai",
  ): Promise<void> => {
    seq += 1;
    const requestSeq = seq;
    const anthropic = protocol === "anthropic";
    const record: RecordedRequest = {
      seq: requestSeq,
      protocol,
      key: null,
      method: req.method ?? "POST",
      path: req.url ?? "",
      headers: flatHeaders(req),
      body: null,
      rawBody,
      outcome: "bad-request",
      clientAborted: false,
    };
    recorded.push(record);
    res.on("close", () => {
      if (!res.writableFinished && !closingServer && record.outcome !== "drop") record.clientAborted = true;
    });

    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      parsed = undefined;
    }
    if (!isChatBody(parsed)) {
      log?.(`#${requestSeq} POST /v1/chat/completions → 400 (body is not a chat request)`);
      sendJson(res, 400, {
        error: {
          message: "Request body must be JSON with a `messages` array.",
          type: "invalid_request_error",
          param: "messages",
          code: null,
        },
      });
      return;
    }
    const body = parsed;
    record.body = body;

    const given = keyOf(req);
    if (keys !== undefined && (given === undefined || !keys.has(given))) {
      record.outcome = "unauthorized";
      log?.(`#${requestSeq} POST ${record.path} → 401 (bad or missing key)`);
      sendJson(
        res,
        401,
        anthropic ? anthropicErrorBody(401, "invalid x-api-key") : defaultErrorBody(401, body.model ?? listedModel),
      );
      return;
    }

    const key = resolveKey(body);
    record.key = key;
    const queue = key === null ? defaultQueue : keyed.get(key);
    const response = queue?.shift();
    const stream = body.stream === true;
    const keyLabel = key === null ? "default queue" : `key ${JSON.stringify(key)}`;
    if (response === undefined) {
      record.outcome = "exhausted";
      const message = key === null ? "script exhausted for the default queue" : `script exhausted for key ${key}`;
      log?.(`#${requestSeq} ${keyLabel} stream=${stream} → 500 ${message}`);
      // retry-after-ms: 0 makes the AI SDK's automatic retries immediate, so the failure surfaces fast.
      sendJson(
        res,
        500,
        { error: { message, type: "scripted_model_error", param: null, code: "script_exhausted" } },
        { "retry-after-ms": "0" },
      );
      return;
    }
    record.outcome = response.kind;
    log?.(`#${requestSeq} ${keyLabel} stream=${stream} → ${describe(response)}`);

    const ctx: ChunkContext = {
      id: `chatcmpl-scripted-${requestSeq}`,
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === "string" ? body.model : listedModel,
    };

    switch (response.kind) {
      case "error": {
        const { status, headers } = response;
        if (typeof response.body === "string") {
          res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
          res.end(response.body);
        } else {
          const fallback = anthropic
            ? anthropicErrorBody(status, (defaultErrorBody(status, ctx.model).error["message"] as string) ?? "error")
            : defaultErrorBody(status, ctx.model);
          sendJson(res, status, response.body ?? fallback, headers);
        }
        return;
      }
      case "reply": {
        const { reply } = response;
        if (anthropic) {
          const anthropicBody = body as unknown as AnthropicRequestBody;
          const input = promptCache.account(anthropicBody, estimateTokens);
          if (reply.usage?.prompt !== undefined) input.input_tokens = reply.usage.prompt;
          const actx = { id: `msg_scripted_${requestSeq}`, model: ctx.model, seq: requestSeq };
          await pause(stream ? 0 : (reply.chunkDelayMs ?? 0), res);
          if (!stream) {
            sendJson(res, 200, anthropicMessage(reply, actx, input));
            return;
          }
          startSse(res);
          const events = anthropicStreamEvents(
            reply,
            { ...actx, chunkSize: reply.chunkSize ?? DEFAULT_CHUNK_SIZE },
            input,
          );
          await streamNamedEvents(res, events, reply.chunkDelayMs ?? 0);
          res.end();
          return;
        }
        if (!stream) {
          await pause(reply.chunkDelayMs ?? 0, res);
          if (res.destroyed) return;
          const text = completionBody(reply, body, ctx, requestSeq);
          res.writeHead(200, {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(text)),
          });
          res.end(text);
          return;
        }
        startSse(res);
        await streamEvents(res, streamPayloads(reply, body, ctx, requestSeq), reply.chunkDelayMs ?? 0);
        res.end();
        return;
      }
      case "malformed": {
        const { reply } = response;
        const broken = `{"id":"${ctx.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"unterminated`;
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(broken);
          return;
        }
        const payloads = streamPayloads(reply, body, ctx, requestSeq);
        const at = Math.max(1, Math.floor((payloads.length - 1) / 2));
        payloads.splice(at, 0, broken);
        startSse(res);
        await streamEvents(res, payloads, reply.chunkDelayMs ?? 0);
        res.end();
        return;
      }
      case "stall": {
        // Hang until the client aborts or the server closes; never end the response.
        if (!stream) return;
        const { reply } = response;
        startSse(res);
        const payloads = streamPayloads(reply, body, ctx, requestSeq).slice(0, response.afterChunks);
        await streamEvents(res, payloads, reply.chunkDelayMs ?? 0);
        return;
      }
      case "drop": {
        const { reply } = response;
        if (stream && response.afterChunks > 0) {
          startSse(res);
          const payloads = streamPayloads(reply, body, ctx, requestSeq).slice(0, response.afterChunks);
          await streamEvents(res, payloads, reply.chunkDelayMs ?? 0);
        }
        req.socket.destroy();
        return;
      }
    }
  };

  const serveControl = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const method = req.method ?? "GET";
    if (url.pathname === "/__script") {
      if (method === "DELETE") {
        reset();
        sendJson(res, 200, { ok: true });
        return;
      }
      if (method === "GET") {
        sendJson(res, 200, {
          default: defaultQueue.length,
          keyed: Object.fromEntries([...keyed].map(([key, queue]) => [key, queue.length])),
        });
        return;
      }
      if (method === "POST") {
        let input: unknown;
        try {
          input = JSON.parse(await readBody(req));
        } catch {
          sendJson(res, 400, { error: { message: "body must be JSON { key?, responses }" } });
          return;
        }
        if (typeof input !== "object" || input === null || Array.isArray(input)) {
          sendJson(res, 400, { error: { message: "body must be JSON { key?, responses }" } });
          return;
        }
        const { key, responses } = input as { key?: unknown; responses?: unknown };
        if (key !== undefined && (typeof key !== "string" || key.length === 0)) {
          sendJson(res, 400, { error: { message: "key must be a non-empty string" } });
          return;
        }
        try {
          enqueue(parseResponses(responses), key);
        } catch (error) {
          sendJson(res, 400, {
            error: { message: error instanceof Error ? error.message : String(error) },
          });
          return;
        }
        const queued = key === undefined ? defaultQueue.length : (keyed.get(key)?.length ?? 0);
        sendJson(res, 200, { ok: true, key: key ?? null, queued });
        return;
      }
    }
    if (url.pathname === "/__requests") {
      if (method === "GET") {
        const key = url.searchParams.get("key");
        sendJson(res, 200, requests(key === null ? undefined : key === "" ? null : key));
        return;
      }
      if (method === "DELETE") {
        recorded = [];
        sendJson(res, 200, { ok: true });
        return;
      }
    }
    sendJson(res, 404, { error: { message: `no control endpoint ${method} ${url.pathname}` } });
  };

  const requests = (key?: string | null): RecordedRequest[] =>
    key === undefined ? [...recorded] : recorded.filter((r) => r.key === key);

  const authorized = (req: IncomingMessage): boolean => {
    const given = keyOf(req);
    return keys === undefined || (given !== undefined && keys.has(given));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://scripted.invalid");
    const method = req.method ?? "GET";
    const path = url.pathname.replace(/\/+$/, "");
    if (path.startsWith("/__script") || path.startsWith("/__requests")) {
      await serveControl(req, res, url);
      return;
    }
    if (method === "POST" && path === "/v1/chat/completions") {
      await serveChat(req, res, await readBody(req));
      return;
    }
    if (method === "POST" && path === "/v1/messages") {
      await serveChat(req, res, await readBody(req), "anthropic");
      return;
    }
    if (method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))) {
      if (!authorized(req)) {
        sendJson(res, 401, defaultErrorBody(401, listedModel));
        return;
      }
      const model = { id: listedModel, object: "model", created: 0, owned_by: "scripted-model" };
      if (path === "/v1/models") sendJson(res, 200, { object: "list", data: [model] });
      else if (decodeURIComponent(path.slice("/v1/models/".length)) === listedModel) sendJson(res, 200, model);
      else sendJson(res, 404, defaultErrorBody(404, decodeURIComponent(path.slice("/v1/models/".length))));
      return;
    }
    sendJson(res, 404, {
      error: {
        message: `Unknown endpoint ${method} ${url.pathname}`,
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, 500, {
        error: {
          message: `scripted model internal error: ${error instanceof Error ? error.message : String(error)}`,
          type: "server_error",
          param: null,
          code: null,
        },
      });
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("scripted model: unexpected server address");
  const port = address.port;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closingServer = true;
    closing ??= new Promise<void>((resolve) => {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    });
    return closing;
  };

  return { url: `http://${urlHost}:${port}/v1`, port, push, reset, requests, close };
}
