/**
 * Scripted OpenAI-compatible model server: wire format over real HTTP (SSE and JSON), keyed
 * queues, failure modes (errors, stalls, malformed SSE, dropped sockets), control endpoints,
 * and an end-to-end check that `@ai-sdk/openai-compatible` + `ai` read text, reasoning, tool
 * calls and usage from it exactly as they would from a real provider.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, isStepCount, RetryError, streamText, tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseResponse, parseScriptFile, ScriptValidationError } from "../support/scripted-model/script.ts";
import { estimatePromptTokens, startScriptedModel } from "../support/scripted-model/server.ts";
import type { ChatRequestBody, ScriptedModel } from "../support/scripted-model/server.ts";

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{
        index: number;
        id?: string;
        type?: string;
        function: { name?: string; arguments?: string };
      }>;
    };
    finish_reason: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

interface Completion {
  object: string;
  model: string;
  choices: Array<{
    message: {
      role: string;
      content: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    };
    finish_reason: string;
  }>;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
}

function chatBody(content: string, extra: Partial<ChatRequestBody> = {}): ChatRequestBody {
  return { model: "test-model", messages: [{ role: "user", content }], ...extra };
}

function post(
  model: ScriptedModel,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${model.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** The `data:` payloads of an SSE body, in order (raw strings, `[DONE]` included). */
async function ssePayloads(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((event) => event.length > 0)
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

function parseChunks(payloads: string[]): Chunk[] {
  return payloads.filter((p) => p !== "[DONE]").map((p) => JSON.parse(p) as Chunk);
}

describe("scripted model: wire format", () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterEach(() => model.reset());
  afterAll(() => model.close());

  it("streams reasoning, text and fragmented tool calls as chat.completion.chunk SSE, then usage and [DONE]", async () => {
    model.push({
      reasoning: "Volume dried up on the test.",
      text: "Looks like a Spring.",
      toolCalls: [
        { id: "call_bars", name: "get_bars", arguments: { symbol: "AAPL", limit: 120 } },
        { name: "note", arguments: '{"text":"raw string args"}' },
      ],
      chunkSize: 5,
    });
    const body = chatBody("read the tape", {
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: "function", function: { name: "get_bars", parameters: { type: "object" } } }],
    });
    const res = await post(model, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);

    const payloads = await ssePayloads(res);
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = parseChunks(payloads);
    for (const c of chunks) {
      expect(c.object).toBe("chat.completion.chunk");
      expect(c.model).toBe("test-model");
      expect(c.id).toBe(chunks[0]?.id);
    }
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });

    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    const reasoningParts = deltas.flatMap((d) => (d.reasoning_content ? [d.reasoning_content] : []));
    expect(reasoningParts.length).toBeGreaterThan(1);
    expect(reasoningParts.join("")).toBe("Volume dried up on the test.");
    expect(deltas.flatMap((d) => (d.content ? [d.content] : [])).join("")).toBe("Looks like a Spring.");

    const toolDeltas = deltas.flatMap((d) => d.tool_calls ?? []);
    const starts = toolDeltas.filter((t) => t.function.name !== undefined);
    expect(starts).toEqual([
      { index: 0, id: "call_bars", type: "function", function: { name: "get_bars", arguments: "" } },
      { index: 1, id: expect.stringMatching(/^call_/), type: "function", function: { name: "note", arguments: "" } },
    ]);
    for (const index of [0, 1]) {
      const fragments = toolDeltas.filter((t) => t.index === index && t.function.name === undefined);
      expect(fragments.length).toBeGreaterThan(1);
      for (const f of fragments) expect(Object.keys(f).sort()).toEqual(["function", "index"]);
      const args = fragments.map((f) => f.function.arguments).join("");
      expect(JSON.parse(args)).toEqual(index === 0 ? { symbol: "AAPL", limit: 120 } : { text: "raw string args" });
    }

    const finish = chunks.filter((c) => c.choices[0]?.finish_reason != null);
    expect(finish).toHaveLength(1);
    expect(finish[0]?.choices[0]?.finish_reason).toBe("tool_calls");
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.prompt_tokens).toBe(estimatePromptTokens(body));
    expect(usageChunk?.usage?.total_tokens).toBe(
      (usageChunk?.usage?.prompt_tokens ?? 0) + (usageChunk?.usage?.completion_tokens ?? 0),
    );
  });

  it("omits the usage chunk unless stream_options.include_usage is set", async () => {
    model.push({ text: "no usage please" });
    const chunks = parseChunks(await ssePayloads(await post(model, chatBody("hi", { stream: true }))));
    expect(chunks.some((c) => c.usage !== undefined)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("answers stream:false with one chat.completion JSON, honouring scripted usage and finish reason", async () => {
    model.push([
      {
        reasoning: "thinking",
        text: "partial answ",
        toolCalls: [{ id: "c1", name: "get_bars", arguments: { symbol: "MSFT" } }],
        usage: { prompt: 1234, completion: 56, reasoning: 7 },
      },
      { text: "cut off", finishReason: "length" },
    ]);
    const res = await post(model, chatBody("first"));
    expect(res.headers.get("content-type")).toBe("application/json");
    const first = (await res.json()) as Completion;
    expect(first.object).toBe("chat.completion");
    expect(first.model).toBe("test-model");
    expect(first.choices[0]?.message).toEqual({
      role: "assistant",
      content: "partial answ",
      reasoning_content: "thinking",
      tool_calls: [{ id: "c1", type: "function", function: { name: "get_bars", arguments: '{"symbol":"MSFT"}' } }],
    });
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(first.usage).toEqual({
      prompt_tokens: 1234,
      completion_tokens: 56,
      total_tokens: 1290,
      completion_tokens_details: { reasoning_tokens: 7 },
    });

    const second = (await (await post(model, chatBody("second"))).json()) as Completion;
    expect(second.choices[0]?.finish_reason).toBe("length");
    expect(second.choices[0]?.message.content).toBe("cut off");
  });

  it("estimates prompt_tokens deterministically from messages + tools (chars/4)", async () => {
    const body = chatBody("x".repeat(400), {
      tools: [{ type: "function", function: { name: "t", description: "d".repeat(100), parameters: {} } }],
    });
    model.push([{ text: "a" }, { text: "b" }]);
    const a = (await (await post(model, body)).json()) as Completion;
    const b = (await (await post(model, body)).json()) as Completion;
    const expected = Math.ceil((JSON.stringify(body.messages).length + JSON.stringify(body.tools).length) / 4);
    expect(a.usage.prompt_tokens).toBe(expected);
    expect(b.usage.prompt_tokens).toBe(expected);
    expect(expected).toBeGreaterThan(100);
  });

  it("lists the model and 404s unknown paths with an OpenAI-style error", async () => {
    const list = (await (await fetch(`${model.url}/models`)).json()) as { object: string; data: Array<{ id: string }> };
    expect(list.object).toBe("list");
    expect(list.data.map((m) => m.id)).toEqual(["scripted"]);
    const missing = await fetch(`${model.url}/embeddings`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/Unknown endpoint/);
  });

  it("rejects a body without messages with 400", async () => {
    const res = await post(model, { model: "x" });
    expect(res.status).toBe(400);
    expect(model.requests()[0]?.outcome).toBe("bad-request");
  });
});

describe("scripted model: queues and control endpoints", () => {
  let model: ScriptedModel;
  let origin: string;
  beforeAll(async () => {
    model = await startScriptedModel({ responses: [{ text: "from the constructor" }] });
    origin = model.url.replace(/\/v1$/, "");
  });
  afterAll(() => model.close());

  it("routes each request to the first registered key found in its messages, else the default queue", async () => {
    model.push([{ text: "alpha-1", chunkDelayMs: 30 }, { text: "alpha-2" }], "session-alpha");
    model.push({ text: "beta-1" }, "session-beta");
    const textOf = async (res: Response): Promise<string | null | undefined> =>
      ((await res.json()) as Completion).choices[0]?.message.content;

    const [a1, b1, d1] = await Promise.all([
      post(model, chatBody("[session-alpha] hello")).then(textOf),
      post(model, {
        messages: [
          { role: "system", content: "You are an analyst." },
          { role: "user", content: [{ type: "text", text: "marker session-beta inside a part" }] },
        ],
      }).then(textOf),
      post(model, chatBody("no marker")).then(textOf),
    ]);
    expect([a1, b1, d1]).toEqual(["alpha-1", "beta-1", "from the constructor"]);
    expect(await textOf(await post(model, chatBody("again session-alpha")))).toBe("alpha-2");

    expect(model.requests("session-alpha").map((r) => r.seq)).toHaveLength(2);
    expect(model.requests(null)).toHaveLength(1);
    expect(model.requests()).toHaveLength(4);
    const viaHttp = (await (await fetch(`${origin}/__requests?key=session-beta`)).json()) as Array<{
      key: string;
      body: ChatRequestBody;
    }>;
    expect(viaHttp).toHaveLength(1);
    expect(viaHttp[0]?.key).toBe("session-beta");
    expect(viaHttp[0]?.body.messages[0]?.content).toBe("You are an analyst.");
  });

  it("fails loudly with HTTP 500 'script exhausted for key X' when a queue is empty", async () => {
    const res = await post(model, chatBody("session-alpha once more"));
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after-ms")).toBe("0");
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error.message).toBe("script exhausted for key session-alpha");
    expect(body.error.code).toBe("script_exhausted");

    const dflt = await post(model, chatBody("no marker"));
    expect(dflt.status).toBe(500);
    expect(((await dflt.json()) as { error: { message: string } }).error.message).toMatch(
      /script exhausted for the default queue/,
    );
  });

  it("appends via POST /__script, reports queue sizes via GET, resets via DELETE", async () => {
    const added = await fetch(`${origin}/__script`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "http-key", responses: [{ text: "one" }, { status: 429 }] }),
    });
    expect(await added.json()).toEqual({ ok: true, key: "http-key", queued: 2 });
    expect(await (await fetch(`${origin}/__script`)).json()).toMatchObject({ default: 0, keyed: { "http-key": 2 } });

    const invalid = await fetch(`${origin}/__script`, {
      method: "POST",
      body: JSON.stringify({ responses: [{ text: "x", toolcalls: [] }] }),
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toMatch(
      /responses\[0\]: unknown field "toolcalls"/,
    );

    expect((await fetch(`${origin}/__script`, { method: "DELETE" })).status).toBe(200);
    expect(await (await fetch(`${origin}/__script`)).json()).toEqual({ default: 0, keyed: {} });
    expect(model.requests()).toEqual([]);
  });
});

describe("scripted model: failure modes", () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterEach(() => model.reset());
  afterAll(() => model.close());

  it("serves scripted HTTP errors with OpenAI-style bodies and custom headers", async () => {
    model.push([
      { status: 429, headers: { "retry-after": "3" } },
      { status: 503, body: "upstream overloaded" },
      { status: 400, body: { error: { message: "context too long", type: "invalid_request_error" } } },
    ]);
    const rateLimited = await post(model, chatBody("a"));
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers.get("retry-after")).toBe("3");
    expect(await rateLimited.json()).toMatchObject({
      error: { code: "rate_limit_exceeded", message: expect.any(String) },
    });

    const plain = await post(model, chatBody("b"));
    expect(plain.status).toBe(503);
    expect(await plain.text()).toBe("upstream overloaded");

    const custom = await post(model, chatBody("c"));
    expect(custom.status).toBe(400);
    expect(await custom.json()).toEqual({ error: { message: "context too long", type: "invalid_request_error" } });
    expect(model.requests().map((r) => r.outcome)).toEqual(["error", "error", "error"]);
  });

  it("stalls after N chunks until the client aborts, and records the abort", async () => {
    model.push({ stallAfterChunks: 2, text: "this text never finishes streaming", chunkSize: 4 });
    const controller = new AbortController();
    const res = await post(model, chatBody("stall", { stream: true }), {}, controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    let received = "";
    const decoder = new TextDecoder();
    while ((received.match(/\n\n/g) ?? []).length < 2) {
      const { value } = await reader.read();
      received += decoder.decode(value);
    }
    const next = reader.read();
    const outcome = await Promise.race([
      next.then(() => "data"),
      new Promise((resolve) => setTimeout(() => resolve("hung"), 150)),
    ]);
    expect(outcome).toBe("hung");
    controller.abort();
    await expect(next).rejects.toThrow();
    await expect.poll(() => model.requests()[0]?.clientAborted).toBe(true);
    expect(received).not.toContain("[DONE]");
  });

  it("close() ends stalled streaming and non-streaming connections promptly", async () => {
    const stalled = await startScriptedModel({
      responses: [{ stallAfterChunks: 1, text: "stuck" }, { stallAfterChunks: 0 }],
    });
    const streaming = await post(stalled, chatBody("s", { stream: true }));
    // Settle both into values right away so a rejection is never "unhandled" while we wait.
    const settle = (p: Promise<unknown>): Promise<string> =>
      p.then(
        () => "resolved",
        () => "rejected",
      );
    const streamingText = settle(streaming.text());
    const nonStreaming = settle(post(stalled, chatBody("n")));
    await expect.poll(() => stalled.requests().length).toBe(2);
    await stalled.close(); // would hang (and time the test out) if stalled sockets were left open
    expect(await streamingText).toBe("rejected");
    expect(await nonStreaming).toBe("rejected");
  });

  it("sends a syntactically broken data line mid-stream, then the rest", async () => {
    model.push({ malformed: true, text: "hello world from a broken stream", chunkSize: 6 });
    const payloads = await ssePayloads(await post(model, chatBody("m", { stream: true })));
    const broken = payloads.filter((p) => {
      if (p === "[DONE]") return false;
      try {
        JSON.parse(p);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken).toHaveLength(1);
    const index = payloads.indexOf(broken[0] ?? "");
    expect(index).toBeGreaterThan(0);
    expect(index).toBeLessThan(payloads.length - 2);
    expect(payloads.at(-1)).toBe("[DONE]");
  });

  it("drops the connection immediately or after some chunks", async () => {
    model.push([{ dropConnection: true }, { dropConnection: true, afterChunks: 2, text: "abcdefghijklmnop" }]);
    await expect(post(model, chatBody("d1"))).rejects.toThrow(/fetch failed/);
    const res = await post(model, chatBody("d2", { stream: true }));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(model.requests().map((r) => r.outcome)).toEqual(["drop", "drop"]);
  });

  it("requires the bearer key when apiKey is set", async () => {
    const secured = await startScriptedModel({ apiKey: "sekret", responses: [{ text: "ok" }] });
    try {
      const denied = await post(secured, chatBody("x"));
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({ error: { code: "invalid_api_key", type: "invalid_request_error" } });
      expect((await fetch(`${secured.url}/models`)).status).toBe(401);
      const allowed = await post(secured, chatBody("x"), { authorization: "Bearer sekret" });
      expect(allowed.status).toBe(200);
      expect(secured.requests().map((r) => [r.outcome, r.headers["authorization"]])).toEqual([
        ["unauthorized", undefined],
        ["reply", "Bearer sekret"],
      ]);
    } finally {
      await secured.close();
    }
  });
});

describe("scripted model: script validation", () => {
  it("tags each response kind", () => {
    expect(parseResponse({ text: "hi" }).kind).toBe("reply");
    expect(parseResponse({ status: 500 }).kind).toBe("error");
    expect(parseResponse({ stallAfterChunks: 3 })).toMatchObject({ kind: "stall", afterChunks: 3 });
    expect(parseResponse({ malformed: true }).kind).toBe("malformed");
    expect(parseResponse({ dropConnection: true })).toMatchObject({ kind: "drop", afterChunks: 0 });
  });

  it("rejects typos and bad values with a path", () => {
    expect(() => parseResponse({ txt: "hi" }, "responses[2]")).toThrow(/responses\[2\]: unknown field "txt"/);
    expect(() => parseResponse({ toolCalls: [{ name: "t", arguments: 3 }] })).toThrow(ScriptValidationError);
    expect(() => parseResponse({ finishReason: "done" })).toThrow(/finishReason/);
    expect(() => parseResponse({ status: 200 })).toThrow(/400-599/);
    expect(() => parseScriptFile({ keyed: { k: {} } })).toThrow(/keyed\["k"\]: must be an array/);
  });

  it("accepts both script file shapes", () => {
    expect(parseScriptFile([{ text: "a" }]).responses).toHaveLength(1);
    const file = parseScriptFile({ model: "m", responses: [], keyed: { k: [{ status: 429 }] } });
    expect(file.model).toBe("m");
    expect(file.keyed).toEqual([{ key: "k", responses: [{ status: 429 }] }]);
  });
});

describe("scripted model: through @ai-sdk/openai-compatible and ai", () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({ apiKey: "test-key" });
  });
  afterEach(() => model.reset());
  afterAll(() => model.close());

  const chat = (includeUsage = true) =>
    createOpenAICompatible({ name: "scripted", baseURL: model.url, apiKey: "test-key", includeUsage }).chatModel(
      "scripted",
    );

  const getBars = tool({
    description: "Fetch daily OHLCV bars",
    inputSchema: z.object({ symbol: z.string(), limit: z.number() }),
    execute: async ({ symbol, limit }) => ({ symbol, bars: limit }),
  });

  it("streamText: reasoning, text, a tool round-trip and usage come through", async () => {
    const marker = "sess-stream-1";
    model.push(
      [
        {
          reasoning: "Need the bars first.",
          toolCalls: [{ id: "call_1", name: "get_bars", arguments: { symbol: "AAPL", limit: 60 } }],
          usage: { prompt: 321, completion: 20 },
        },
        { reasoning: "Range intact.", text: "AAPL is in Phase B.", chunkSize: 3 },
      ],
      marker,
    );
    const result = streamText({
      model: chat(),
      system: "You are a Wyckoff analyst.",
      prompt: `Analyse AAPL [${marker}]`,
      tools: { get_bars: getBars },
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    const types = new Set<string>();
    for await (const part of result.fullStream) types.add(part.type);
    expect(types).toEqual(
      new Set([
        "start",
        "start-step",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-end",
        "tool-call",
        "tool-result",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish",
      ]),
    );

    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.reasoningText).toBe("Need the bars first.");
    expect(steps[0]?.finishReason).toBe("tool-calls");
    expect(steps[0]?.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([
      ["call_1", "get_bars", { symbol: "AAPL", limit: 60 }],
    ]);
    expect(steps[0]?.toolResults[0]?.output).toEqual({ symbol: "AAPL", bars: 60 });
    expect(steps[0]?.usage.inputTokens).toBe(321);
    expect(steps[0]?.usage.outputTokens).toBe(20);
    expect(await result.text).toBe("AAPL is in Phase B.");
    expect(await result.reasoningText).toBe("Range intact.");
    expect(await result.finishReason).toBe("stop");

    const sent = model.requests(marker);
    expect(sent).toHaveLength(2);
    const second = sent[1]?.body;
    expect(sent[1]?.headers["authorization"]).toBe("Bearer test-key");
    expect(second?.stream).toBe(true);
    expect(second?.stream_options).toEqual({ include_usage: true });
    expect(second?.tools?.map((t) => t.function.name)).toEqual(["get_bars"]);
    expect(second?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second?.messages[0]?.content).toBe("You are a Wyckoff analyst.");
    expect(second?.messages[2]?.tool_calls?.[0]).toMatchObject({ id: "call_1", function: { name: "get_bars" } });
    expect(second?.messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    // Estimated usage on the second step equals the server's deterministic prompt estimate.
    expect(steps[1]?.usage.inputTokens).toBe(estimatePromptTokens(second ?? { messages: [] }));
    expect(steps[1]?.usage.outputTokenDetails.reasoningTokens).toBe(Math.ceil("Range intact.".length / 4));
  });

  it("generateText (stream:false): reasoning, text, tool call and usage come through", async () => {
    model.push([
      {
        reasoning: "hmm",
        text: "Calling.",
        toolCalls: [{ name: "get_bars", arguments: { symbol: "MSFT", limit: 5 } }],
        usage: { prompt: 50, completion: 9 },
      },
      { text: "Done." },
    ]);
    const result = await generateText({
      model: chat(),
      prompt: "Analyse MSFT",
      tools: { get_bars: getBars },
      stopWhen: isStepCount(2),
      maxRetries: 0,
    });
    expect(result.steps[0]?.reasoningText).toBe("hmm");
    expect(result.steps[0]?.text).toBe("Calling.");
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual({ symbol: "MSFT", limit: 5 });
    expect(result.steps[0]?.usage).toMatchObject({ inputTokens: 50, outputTokens: 9, totalTokens: 59 });
    expect(result.text).toBe("Done.");
    expect(model.requests().every((r) => r.body?.stream === undefined)).toBe(true);
  });

  it("without includeUsage the provider sends no stream_options and streamed usage is undefined", async () => {
    model.push({ text: "x" });
    const result = streamText({ model: chat(false), prompt: "hi", maxRetries: 0 });
    await result.consumeStream();
    expect((await result.usage).inputTokens).toBeUndefined();
    expect(model.requests()[0]?.body?.stream_options).toBeUndefined();
  });

  it("HTTP errors surface as APICallError; retries honour retry-after-ms", async () => {
    model.push([{ status: 429, headers: { "retry-after-ms": "0" } }, { text: "after retry" }]);
    const retried = await generateText({ model: chat(), prompt: "hi", maxRetries: 1 });
    expect(retried.text).toBe("after retry");
    expect(model.requests().map((r) => r.outcome)).toEqual(["error", "reply"]);

    model.push({ status: 401 });
    const error: unknown = await generateText({ model: chat(), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.statusCode).toBe(401);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toBe("Incorrect API key provided.");
  });

  it("an exhausted script fails the call quickly even with default retries", async () => {
    const error: unknown = await generateText({ model: chat(), prompt: "nothing scripted" }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/script exhausted for the default queue/);
    expect(model.requests()).toHaveLength(3); // first try + 2 retries
    // The retries are immediate because the server says so, not because of timing luck.
    const last = RetryError.isInstance(error) ? error.lastError : error;
    expect(APICallError.isInstance(last) && last.responseHeaders).toMatchObject({ "retry-after-ms": "0" });
  });

  it("a malformed SSE line becomes an error part while the rest of the stream still arrives", async () => {
    model.push({ malformed: true, text: "hello world, this is text" });
    const errors: unknown[] = [];
    const result = streamText({
      model: chat(),
      prompt: "hi",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain("error");
    expect(String(errors[0])).toMatch(/JSON parsing failed/);
    expect(await result.text).toBe("hello world, this is text");
  });

  it("a stalled stream is ended by the caller's abort signal", async () => {
    model.push({ stallAfterChunks: 2, text: "hello world, this is text" });
    const result = streamText({
      model: chat(),
      prompt: "hi",
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(200),
    });
    const types: string[] = [];
    const consumed = (async () => {
      for await (const part of result.fullStream) types.push(part.type);
    })();
    await consumed.catch(() => undefined);
    expect(types).toContain("text-delta");
    expect(types.at(-1)).toBe("abort");
    await expect.poll(() => model.requests()[0]?.clientAborted).toBe(true);
  });

  it("a dropped connection is a retryable 'Cannot connect to API' APICallError", async () => {
    // (Retrying it would wait the SDK's 2 s exponential backoff: no retry-after header on a dead socket.)
    model.push({ dropConnection: true });
    const error: unknown = await generateText({ model: chat(), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/Cannot connect to API/);
  });
});
