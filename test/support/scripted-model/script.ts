/**
 * Script format for the scripted OpenAI-compatible model server.
 *
 * A script is a list of "responses": one scripted turn of the model per
 * `POST /v1/chat/completions` request. Each response is one of:
 *
 * - a normal reply: `{ reasoning?, text?, toolCalls?, usage?, finishReason?, chunkDelayMs?, chunkSize? }`
 * - an HTTP error: `{ status, body?, headers? }`
 * - a stall: `{ stallAfterChunks, ...reply }` — sends N SSE events, then hangs until the client aborts
 * - a malformed stream: `{ malformed: true, ...reply }` — a syntactically broken `data:` line mid-stream
 * - a dropped connection: `{ dropConnection: true, afterChunks?, ...reply }` — destroys the socket
 *
 * Script files (for the CLI) are either a bare array of responses (the
 * default queue) or `{ model?, apiKey?, responses?, keyed? }` where `keyed`
 * maps a marker string to its own queue.
 *
 * Everything here is hand-validated with path-qualified messages, and
 * unknown fields are rejected so a typo in a test script fails loudly
 * (a `$comment` string field is allowed anywhere for annotations).
 */

/** OpenAI `finish_reason` values the server can emit. */
export type ScriptedFinishReason = "stop" | "tool_calls" | "length" | "content_filter";

/** One tool call the model makes. `arguments` objects are JSON-encoded; strings are sent verbatim. */
export interface ScriptedToolCall {
  /** Tool call id; defaults to a deterministic `call_<request#>_<index>`. */
  id?: string;
  /** Function name, as declared in the request's `tools`. */
  name: string;
  /** Arguments object (JSON-encoded on the wire) or a raw string (sent as-is, may be invalid JSON). */
  arguments: Record<string, unknown> | string;
}

/** Token usage to report; any field left out is estimated. */
export interface ScriptedUsage {
  /** `prompt_tokens`. Default: ceil(chars(JSON of messages + tools) / 4). */
  prompt?: number;
  /** `completion_tokens`. Default: ceil(chars(reasoning + text + tool names/arguments) / 4). */
  completion?: number;
  /** `completion_tokens_details.reasoning_tokens`. Default: ceil(chars(reasoning) / 4) when there is reasoning. */
  reasoning?: number;
  /** `prompt_tokens_details.cached_tokens`. Omitted unless given. */
  cached?: number;
}

/** Fields shared by every response that produces model output. */
export interface ScriptedReplyFields {
  /** DeepSeek-style `reasoning_content`, streamed before the text. */
  reasoning?: string;
  /** Assistant text (`content`). */
  text?: string;
  /** Tool calls, streamed after the text. */
  toolCalls?: ScriptedToolCall[];
  /** Reported usage; missing fields are estimated. */
  usage?: ScriptedUsage;
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: ScriptedFinishReason;
  /** Delay before each SSE event after the first (for `stream: false`, once before the reply), in ms. Default 0. */
  chunkDelayMs?: number;
  /** Characters per reasoning/text/argument fragment. Default 8. */
  chunkSize?: number;
}

/** A normal model reply. */
export type ScriptedReply = ScriptedReplyFields;

/** An HTTP error response. */
export interface ScriptedError {
  /** HTTP status, e.g. 429, 500, 401, 404, 400. */
  status: number;
  /** Response body: objects are sent as JSON, strings verbatim. Default: an OpenAI-style `{ error: { message, type, code } }`. */
  body?: unknown;
  /** Extra response headers, e.g. `{ "retry-after": "1" }`. */
  headers?: Record<string, string>;
}

/** Streams `stallAfterChunks` SSE events of the reply, then hangs without closing until the client goes away. */
export interface ScriptedStall extends ScriptedReplyFields {
  /** Number of `data:` events to send before hanging (0 = headers only). */
  stallAfterChunks: number;
}

/** Streams half of the reply, then a syntactically broken `data:` line, then the rest and `[DONE]`. */
export interface ScriptedMalformed extends ScriptedReplyFields {
  /** Marker. */
  malformed: true;
}

/** Destroys the socket (immediately, or after `afterChunks` SSE events when streaming). */
export interface ScriptedDrop extends ScriptedReplyFields {
  /** Marker. */
  dropConnection: true;
  /** Number of `data:` events to send first (streaming only). Default 0. */
  afterChunks?: number;
}

/** One scripted turn of the model, consumed by one chat-completions request. */
export type ScriptedResponse = ScriptedReply | ScriptedError | ScriptedStall | ScriptedMalformed | ScriptedDrop;

/** A validated response, tagged with its kind (what the server actually works on). */
export type NormalizedResponse =
  | { kind: "reply"; reply: ScriptedReplyFields }
  | { kind: "error"; status: number; body?: unknown; headers: Record<string, string> }
  | { kind: "stall"; reply: ScriptedReplyFields; afterChunks: number }
  | { kind: "malformed"; reply: ScriptedReplyFields }
  | { kind: "drop"; reply: ScriptedReplyFields; afterChunks: number };

/** A script file as loaded by the CLI. */
export interface ScriptFile {
  /** Model id listed by `GET /v1/models` (requests' `model` is echoed regardless). Default `scripted`. */
  model?: string;
  /** When set, chat requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** The default queue. */
  responses?: ScriptedResponse[];
  /** Keyed queues: a request whose messages contain the key (substring) uses that queue. */
  keyed?: Record<string, ScriptedResponse[]>;
}

/** Thrown when a script or a response fails validation; the message names the offending path. */
export class ScriptValidationError extends Error {
  override name = "ScriptValidationError";
}

const REPLY_KEYS = [
  "$comment",
  "reasoning",
  "text",
  "toolCalls",
  "usage",
  "finishReason",
  "chunkDelayMs",
  "chunkSize",
] as const;
const FINISH_REASONS: readonly string[] = ["stop", "tool_calls", "length", "content_filter"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(path: string, message: string): never {
  throw new ScriptValidationError(`${path}: ${message}`);
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      fail(path, `unknown field "${key}" (allowed: ${allowed.join(", ")})`);
    }
  }
}

function optString(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") fail(path, "must be a string");
  return value;
}

function optCount(value: unknown, path: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    fail(path, `must be an integer >= ${min}`);
  }
  return value;
}

function parseToolCall(value: unknown, path: string): ScriptedToolCall {
  if (!isRecord(value)) fail(path, "must be an object { id?, name, arguments }");
  checkKeys(value, ["id", "name", "arguments"], path);
  const name = value["name"];
  if (typeof name !== "string" || name.length === 0) fail(`${path}.name`, "must be a non-empty string");
  const args = value["arguments"];
  if (typeof args !== "string" && !isRecord(args)) {
    fail(`${path}.arguments`, "must be an object or a string");
  }
  const id = optString(value["id"], `${path}.id`);
  return id === undefined ? { name, arguments: args } : { id, name, arguments: args };
}

function parseUsage(value: unknown, path: string): ScriptedUsage {
  if (!isRecord(value)) fail(path, "must be an object { prompt?, completion?, reasoning?, cached? }");
  checkKeys(value, ["prompt", "completion", "reasoning", "cached"], path);
  const usage: ScriptedUsage = {};
  const prompt = optCount(value["prompt"], `${path}.prompt`, 0);
  const completion = optCount(value["completion"], `${path}.completion`, 0);
  const reasoning = optCount(value["reasoning"], `${path}.reasoning`, 0);
  const cached = optCount(value["cached"], `${path}.cached`, 0);
  if (prompt !== undefined) usage.prompt = prompt;
  if (completion !== undefined) usage.completion = completion;
  if (reasoning !== undefined) usage.reasoning = reasoning;
  if (cached !== undefined) usage.cached = cached;
  return usage;
}

function parseReplyFields(value: Record<string, unknown>, path: string): ScriptedReplyFields {
  const reply: ScriptedReplyFields = {};
  const reasoning = optString(value["reasoning"], `${path}.reasoning`);
  const text = optString(value["text"], `${path}.text`);
  if (reasoning !== undefined) reply.reasoning = reasoning;
  if (text !== undefined) reply.text = text;
  const toolCalls = value["toolCalls"];
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) fail(`${path}.toolCalls`, "must be an array");
    reply.toolCalls = toolCalls.map((call: unknown, i) => parseToolCall(call, `${path}.toolCalls[${i}]`));
  }
  if (value["usage"] !== undefined) reply.usage = parseUsage(value["usage"], `${path}.usage`);
  const finishReason = value["finishReason"];
  if (finishReason !== undefined) {
    if (typeof finishReason !== "string" || !FINISH_REASONS.includes(finishReason)) {
      fail(`${path}.finishReason`, `must be one of ${FINISH_REASONS.join(", ")}`);
    }
    reply.finishReason = finishReason as ScriptedFinishReason;
  }
  const chunkDelayMs = optCount(value["chunkDelayMs"], `${path}.chunkDelayMs`, 0);
  const chunkSize = optCount(value["chunkSize"], `${path}.chunkSize`, 1);
  if (chunkDelayMs !== undefined) reply.chunkDelayMs = chunkDelayMs;
  if (chunkSize !== undefined) reply.chunkSize = chunkSize;
  return reply;
}

/**
 * Validates one scripted response and tags it with its kind.
 * @param value untrusted JSON (e.g. from a script file or `POST /__script`)
 * @param path location used in error messages, e.g. `responses[3]`
 * @throws ScriptValidationError naming the offending field
 */
export function parseResponse(value: unknown, path = "response"): NormalizedResponse {
  if (!isRecord(value)) fail(path, "must be an object");
  if ("status" in value) {
    checkKeys(value, ["$comment", "status", "body", "headers"], path);
    const status = value["status"];
    if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599) {
      fail(`${path}.status`, "must be an HTTP error status (400-599)");
    }
    const headers: Record<string, string> = {};
    const rawHeaders = value["headers"];
    if (rawHeaders !== undefined) {
      if (!isRecord(rawHeaders)) fail(`${path}.headers`, "must be an object of strings");
      for (const [name, headerValue] of Object.entries(rawHeaders)) {
        if (typeof headerValue !== "string" && typeof headerValue !== "number") {
          fail(`${path}.headers.${name}`, "must be a string");
        }
        headers[name.toLowerCase()] = String(headerValue);
      }
    }
    return value["body"] === undefined
      ? { kind: "error", status, headers }
      : { kind: "error", status, body: value["body"], headers };
  }
  if ("stallAfterChunks" in value) {
    checkKeys(value, [...REPLY_KEYS, "stallAfterChunks"], path);
    const afterChunks = optCount(value["stallAfterChunks"], `${path}.stallAfterChunks`, 0) ?? 0;
    return { kind: "stall", reply: parseReplyFields(value, path), afterChunks };
  }
  if ("malformed" in value) {
    checkKeys(value, [...REPLY_KEYS, "malformed"], path);
    if (value["malformed"] !== true) fail(`${path}.malformed`, "must be true");
    return { kind: "malformed", reply: parseReplyFields(value, path) };
  }
  if ("dropConnection" in value) {
    checkKeys(value, [...REPLY_KEYS, "dropConnection", "afterChunks"], path);
    if (value["dropConnection"] !== true) fail(`${path}.dropConnection`, "must be true");
    const afterChunks = optCount(value["afterChunks"], `${path}.afterChunks`, 0) ?? 0;
    return { kind: "drop", reply: parseReplyFields(value, path), afterChunks };
  }
  checkKeys(value, REPLY_KEYS, path);
  return { kind: "reply", reply: parseReplyFields(value, path) };
}

/**
 * Validates a list of scripted responses.
 * @param value untrusted JSON that should be an array
 * @param path location used in error messages
 * @throws ScriptValidationError naming the offending element
 */
export function parseResponses(value: unknown, path = "responses"): NormalizedResponse[] {
  if (!Array.isArray(value)) fail(path, "must be an array of responses");
  return value.map((item: unknown, i) => parseResponse(item, `${path}[${i}]`));
}

/**
 * Validates a list of responses and returns it typed as input for `push()`
 * (which keeps the JSON shape; the server re-normalizes on push).
 * @throws ScriptValidationError naming the offending element
 */
export function validateResponses(value: unknown, path = "responses"): ScriptedResponse[] {
  parseResponses(value, path);
  return value as ScriptedResponse[];
}

/** A validated script file. */
export interface ParsedScriptFile {
  /** Model id to list, if the file set one. */
  model?: string;
  /** Required bearer key, if the file set one. */
  apiKey?: string;
  /** The default queue. */
  responses: ScriptedResponse[];
  /** Keyed queues in file order. */
  keyed: Array<{ key: string; responses: ScriptedResponse[] }>;
}

/**
 * Validates a whole script file: either a bare array (default queue) or
 * `{ model?, apiKey?, responses?, keyed? }`.
 * @throws ScriptValidationError naming the offending path
 */
export function parseScriptFile(value: unknown): ParsedScriptFile {
  if (Array.isArray(value)) return { responses: validateResponses(value), keyed: [] };
  if (!isRecord(value)) fail("script", "must be an array of responses or an object");
  checkKeys(value, ["model", "apiKey", "responses", "keyed", "$comment"], "script");
  const parsed: ParsedScriptFile = {
    responses: value["responses"] === undefined ? [] : validateResponses(value["responses"]),
    keyed: [],
  };
  const model = optString(value["model"], "script.model");
  const apiKey = optString(value["apiKey"], "script.apiKey");
  if (model !== undefined) parsed.model = model;
  if (apiKey !== undefined) parsed.apiKey = apiKey;
  const keyed = value["keyed"];
  if (keyed !== undefined) {
    if (!isRecord(keyed)) fail("script.keyed", "must be an object mapping key -> responses");
    for (const [key, responses] of Object.entries(keyed)) {
      if (key.length === 0) fail("script.keyed", "keys must be non-empty");
      parsed.keyed.push({
        key,
        responses: validateResponses(responses, `keyed[${JSON.stringify(key)}]`),
      });
    }
  }
  return parsed;
}
