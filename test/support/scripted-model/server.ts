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
 *
 * Here: the server and its chat endpoint. The wire format is `openai-wire.ts` (errors
 * `openai-errors.ts`), `anthropic.ts` the Messages protocol, `script-queues.ts` the queues,
 * `control.ts` the control endpoints, `http-io.ts` the HTTP and SSE plumbing.
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
import { serveControl } from "./control.ts";
import { flatHeaders, pause, readBody, sendJson, startSse, streamEvents, streamNamedEvents } from "./http-io.ts";
import { defaultErrorBody } from "./openai-errors.ts";
import {
  completionBody,
  DEFAULT_CHUNK_SIZE,
  estimateTokens,
  isChatBody,
  streamPayloads,
  type ChunkContext,
} from "./openai-wire.ts";
import type { RecordedRequest } from "./recorded-request.ts";
import { parseResponses } from "./script.ts";
import type { ScriptedResponse } from "./script.ts";
import { describe, ScriptQueues } from "./script-queues.ts";

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
  const queues = new ScriptQueues(opts.responses ? parseResponses(opts.responses) : []);
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

  const push = (responses: ScriptedResponse | ScriptedResponse[], key?: string): void => queues.push(responses, key);

  const reset = (): void => {
    queues.clear();
    recorded = [];
    promptCache.clear();
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

    const key = queues.resolveKey(body);
    record.key = key;
    const response = queues.take(key);
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
          await pause(stream ? 0 : (reply.chunkDelayMs ?? 0), res, pendingTimers);
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
          await streamNamedEvents(res, events, reply.chunkDelayMs ?? 0, pendingTimers);
          res.end();
          return;
        }
        if (!stream) {
          await pause(reply.chunkDelayMs ?? 0, res, pendingTimers);
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
        await streamEvents(res, streamPayloads(reply, body, ctx, requestSeq), reply.chunkDelayMs ?? 0, pendingTimers);
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
        await streamEvents(res, payloads, reply.chunkDelayMs ?? 0, pendingTimers);
        res.end();
        return;
      }
      case "stall": {
        // Hang until the client aborts or the server closes; never end the response.
        if (!stream) return;
        const { reply } = response;
        startSse(res);
        const payloads = streamPayloads(reply, body, ctx, requestSeq).slice(0, response.afterChunks);
        await streamEvents(res, payloads, reply.chunkDelayMs ?? 0, pendingTimers);
        return;
      }
      case "drop": {
        const { reply } = response;
        if (stream && response.afterChunks > 0) {
          startSse(res);
          const payloads = streamPayloads(reply, body, ctx, requestSeq).slice(0, response.afterChunks);
          await streamEvents(res, payloads, reply.chunkDelayMs ?? 0, pendingTimers);
        }
        req.socket.destroy();
        return;
      }
    }
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
      await serveControl(req, res, url, { queues, reset, requests, forgetRequests: () => (recorded = []) });
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
  server.keepAliveTimeout = 65_000; // outlives clients' idle sockets: Node's 5 s races a reuse under load (ECONNRESET)
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
