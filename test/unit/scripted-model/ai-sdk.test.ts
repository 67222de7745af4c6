/**
 * Scripted OpenAI-compatible model server end to end: `@ai-sdk/openai-compatible` + `ai` read text,
 * reasoning, tool calls, usage and every failure mode from it exactly as from a real provider.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, isStepCount, RetryError, streamText, tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { estimatePromptTokens } from "../../support/scripted-model/openai-wire.ts";
import { startScriptedModel } from "../../support/scripted-model/server.ts";
import type { ScriptedModel } from "../../support/scripted-model/server.ts";

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
