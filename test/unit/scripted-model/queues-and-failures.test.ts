/**
 * Scripted OpenAI-compatible model server: keyed queues and the control endpoints, and the failure
 * modes it scripts (errors, stalls, malformed SSE, dropped sockets, a required key).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatBody, post, ssePayloads, type Completion } from "../../support/scripted-model/http-client.ts";
import { startScriptedModel } from "../../support/scripted-model/server.ts";
import type { ChatRequestBody } from "../../support/scripted-model/openai-wire.ts";
import type { ScriptedModel } from "../../support/scripted-model/server.ts";

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
