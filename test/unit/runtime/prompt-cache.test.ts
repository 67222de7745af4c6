/**
 * Prompt caching end to end in Node: the real Anthropic provider against the scripted model server's
 * Messages endpoint (with its emulated prompt cache), the byte-stable system prompt, the breakpoints,
 * cache tokens in usage and cost; and the parameter fallback of OpenAI-compatible endpoints.
 */
import type { ModelMessage } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createModels, providerOf } from "../../../worker/runtime/model";
import { forgetRejectedParameters, rejectedParameters } from "../../../worker/runtime/param-fallback";
import { buildSystemPrompt, turnContext } from "../../../worker/runtime/prompts/system";
import { runHarnessTurn } from "../../support/runtime-harness";
import { startScriptedModel, type ScriptedModel } from "../../support/scripted-model/server";

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel({ apiKey: "sk-ant-test" });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  forgetRejectedParameters();
});

type AnthropicBody = {
  system?: { type: string; text: string; cache_control?: unknown }[];
  messages: { role: string; content: { type: string; text?: string; cache_control?: unknown }[] }[];
  tools?: unknown[];
};

describe("provider selection", () => {
  it("speaks Anthropic for api.anthropic.com or the provider setting, OpenAI-compatible otherwise", () => {
    expect(providerOf({ baseURL: "https://api.anthropic.com/v1" })).toBe("anthropic");
    expect(providerOf({ baseURL: "https://API.Anthropic.com/v1/" })).toBe("anthropic");
    expect(providerOf({ baseURL: "https://api.deepseek.com/v1" })).toBe("openai-compatible");
    expect(providerOf({ baseURL: "http://127.0.0.1:9/v1", provider: "anthropic" })).toBe("anthropic");
    expect(providerOf({ baseURL: "https://api.anthropic.com/v1", provider: "openai-compatible" })).toBe(
      "openai-compatible",
    );
  });
});

describe("prompt caching with Anthropic", () => {
  it("sends a byte-identical system prompt with breakpoints across three turns, and the cache is read", async () => {
    const models = createModels(
      { baseURL: server.url, apiKey: "sk-ant-test", model: "claude-scripted", provider: "anthropic" },
      undefined,
    );
    const system = buildSystemPrompt({ profilePrompt: "Profile: cn-equity." });
    server.push([
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }], usage: { completion: 5 } },
      { text: "第一轮答复。" },
      { text: "第二轮答复。" },
      { text: "第三轮答复。" },
    ]);
    let history: ModelMessage[] = [];
    const runs = [];
    const questions = ["现在开盘了吗？", "那美股呢？", "总结一下"];
    for (const [i, text] of questions.entries()) {
      const run = await runHarnessTurn({
        models,
        text,
        history,
        system,
        // The context moves every turn (another day, other hints); the system prompt must not.
        context: turnContext({ now: Date.UTC(2026, 11, 1 + i), hints: i === 1 ? ["US hours differ."] : [] }),
        priceOf: () => ({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }),
      });
      expect(run.result.status).toBe("done");
      runs.push(run);
      history = [...history, { role: "user", content: text }, ...run.appended];
    }
    const requests = server.requests();
    expect(requests.map((r) => r.protocol)).toEqual(["anthropic", "anthropic", "anthropic", "anthropic"]);
    expect(requests[0]?.headers["x-api-key"]).toBe("sk-ant-test");
    const bodies = requests.map((r) => r.body as unknown as AnthropicBody);
    // One system block, byte-identical in every request, with a breakpoint on it.
    const systems = requests.map((r) => JSON.stringify((JSON.parse(r.rawBody) as { system: unknown }).system));
    expect(new Set(systems).size).toBe(1);
    expect(bodies[0]?.system).toEqual([{ type: "text", text: system, cache_control: { type: "ephemeral" } }]);
    expect(system).not.toContain("2026-12");
    for (const body of bodies) {
      // The sliding breakpoint: the last block of the last message, and only there among the messages.
      const blocks = body.messages.flatMap((m) => m.content);
      const marked = blocks.filter((b) => b.cache_control !== undefined);
      expect(marked).toEqual([blocks.at(-1)]);
      expect(blocks.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    }
    // The date and hints travel with the question instead.
    const lastQuestion = bodies[2]?.messages.at(-1)?.content[0]?.text ?? "";
    expect(lastQuestion).toContain("Today (UTC): 2026-12-02.");
    expect(lastQuestion).toContain("- US hours differ.");
    expect(lastQuestion).toContain("<current-user-message>\n那美股呢？\n</current-user-message>");
    // Usage: the first request writes the cache; round 2 of turn 1 reads round 1's whole prefix (the
    // sliding breakpoint); later turns read at least the tools + system prompt, the same amount each
    // time (an earlier question is shown without its turn context, so the reuse stops there).
    const usage = runs.map((r) => r.result.usage);
    const perRequest = runs.flatMap((r) =>
      r.chunks.flatMap((c) =>
        c.type === "data-usage" ? [(c.data as { cachedInputTokens: number }).cachedInputTokens] : [],
      ),
    );
    expect(usage[0]?.cacheWriteTokens).toBeGreaterThan(0);
    expect(perRequest[0]).toBe(0);
    const stablePrefix = perRequest[2] ?? 0;
    expect(stablePrefix).toBeGreaterThan(0);
    expect(perRequest[1]).toBeGreaterThan(stablePrefix);
    expect(perRequest[3]).toBe(stablePrefix);
    // Cost prices reads and writes at their own rates.
    const u = usage[2] ?? usage[0];
    if (!u) throw new Error("no usage");
    const uncached = u.inputTokens - u.cachedInputTokens - u.cacheWriteTokens;
    expect(uncached).toBeGreaterThanOrEqual(0);
    expect(u.costUsd).toBeCloseTo(
      (uncached * 3 + u.cachedInputTokens * 0.3 + u.cacheWriteTokens * 3.75 + u.outputTokens * 15) / 1e6,
      10,
    );
    const usageChunk = runs[2]?.chunks.find((c) => c.type === "data-usage") as { data: { cachedInputTokens: number } };
    expect(usageChunk.data.cachedInputTokens).toBe(u.cachedInputTokens);
  });

  it("adds no breakpoints for OpenAI-compatible endpoints", async () => {
    const models = createModels({ baseURL: server.url, apiKey: "sk-ant-test", model: "scripted" }, undefined);
    server.push({ text: "ok" });
    await runHarnessTurn({ models, text: "hi", context: "Today (UTC): 2026-12-01." });
    const [request] = server.requests();
    expect(request?.protocol).toBe("openai");
    expect(request?.rawBody).not.toContain("cache_control");
    expect(request?.body?.messages[0]).toEqual({ role: "system", content: "You are a test." });
  });
});

describe("parameter fallback", () => {
  it("retries without a rejected optional parameter and leaves it out from then on for that endpoint", async () => {
    const models = createModels({ baseURL: server.url, apiKey: "sk-ant-test", model: "scripted" }, undefined);
    server.push([
      {
        status: 400,
        body: {
          error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error" },
        },
      },
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      {
        status: 422,
        body: { detail: [{ loc: ["body", "tool_choice"], msg: "extra fields not permitted" }] },
      },
      { text: "done" },
      { text: "next turn" },
    ]);
    const first = await runHarnessTurn({ models, text: "现在几点" });
    expect(first.result.status).toBe("done");
    const bodies = server.requests().map((r) => r.body ?? {});
    expect(bodies.map((b) => ["stream_options" in b, "tool_choice" in b])).toEqual([
      [true, true], // rejected: stream_options
      [false, true], // retried without it
      [false, true], // round 2: rejected tool_choice
      [false, false], // retried without both
    ]);
    expect(rejectedParameters(server.url).sort()).toEqual(["stream_options", "tool_choice"]);
    // A new chain (a later turn) for the same endpoint sends neither, and needs no retry.
    const again = await runHarnessTurn({
      models: createModels({ baseURL: server.url, apiKey: "sk-ant-test", model: "scripted" }, undefined),
      text: "hello",
    });
    expect(again.result.status).toBe("done");
    const last = server.requests().at(-1);
    expect(server.requests()).toHaveLength(5);
    expect(last?.body && ("stream_options" in last.body || "tool_choice" in last.body)).toBe(false);
  });

  it("passes other 400s through as failures, untouched", async () => {
    const models = createModels({ baseURL: server.url, apiKey: "sk-ant-test", model: "scripted" }, undefined);
    server.push({ status: 400, body: { error: { message: "messages: too long" } } });
    const run = await runHarnessTurn({ models, text: "hello" });
    expect(run.result.status).toBe("error");
    expect(server.requests()).toHaveLength(1);
    expect(rejectedParameters(server.url)).toEqual([]);
  });
});
