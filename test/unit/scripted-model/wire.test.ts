/**
 * Scripted OpenAI-compatible model server: the wire format over real HTTP (SSE and JSON, usage,
 * the prompt-token estimate, model listing) and the validation of scripts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseResponse, parseScriptFile, ScriptValidationError } from "../../support/scripted-model/script.ts";
import { estimatePromptTokens } from "../../support/scripted-model/openai-wire.ts";
import { chatBody, parseChunks, post, ssePayloads, type Completion } from "../../support/scripted-model/http-client.ts";
import { startScriptedModel } from "../../support/scripted-model/server.ts";
import type { ScriptedModel } from "../../support/scripted-model/server.ts";

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
