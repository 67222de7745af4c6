/**
 * The ecosystem's own clients against the worker, with no adaptation on their side: the AI SDK's
 * `AbstractChat` + `DefaultChatTransport` (default body, default resume path), npm `eventsource`
 * (reconnects with `Last-Event-ID`, stops on 204), a Svix-branded signed webhook, and the official
 * MCP client (prompts, a resource, −32602 for an unknown tool).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AbstractChat, DefaultChatTransport, type ChatState, type ChatStatus, type UIMessage } from "ai";
import { exports } from "cloudflare:workers";
import { EventSource } from "eventsource";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { testEnv } from "./test-env";
import { call, eventually, newSession, parseFrames, postJson, readSession, script, sendAndRead } from "./turn-helpers";

const BASE = "http://wyckoff.test";

/** The worker as a fetch function (workerd's Request has no `mode`/`cache`: pass what matters). */
function workerFetch(seen?: Request[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const base = new Request(input instanceof Request ? input : String(input), init);
    const req = new Request(base.url, {
      method: base.method,
      headers: base.headers,
      body: base.method === "GET" || base.method === "HEAD" ? null : await base.text(),
      signal: init?.signal ?? null,
    });
    seen?.push(req.clone());
    return exports.default.fetch(req);
  }) as typeof fetch;
}

/** The smallest state an `AbstractChat` needs (what `@ai-sdk/react`'s Chat keeps in React state). */
class MemoryState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  constructor(public messages: UIMessage[] = []) {}
  pushMessage = (m: UIMessage) => void (this.messages = [...this.messages, m]);
  popMessage = () => void (this.messages = this.messages.slice(0, -1));
  replaceMessage = (i: number, m: UIMessage) => void (this.messages = this.messages.map((x, j) => (j === i ? m : x)));
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class TestChat extends AbstractChat<UIMessage> {
  constructor(id: string, messages: UIMessage[] = []) {
    super({
      id,
      state: new MemoryState(messages),
      // No prepareSendMessagesRequest / prepareReconnectToStreamRequest: the SDK's defaults.
      transport: new DefaultChatTransport({ api: `${BASE}/api/sessions/${id}/messages`, fetch: workerFetch() }),
    });
  }
}

function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
}

describe("the AI SDK chat transport, unadapted", () => {
  it("completes a turn with the default body, and a new chat resumes a running turn by the default path", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { text: "First answer.", usage: { prompt: 40, completion: 3 } },
      { text: "A slow second answer, streamed in many small pieces.", chunkDelayMs: 40, chunkSize: 2 },
    ]);
    const chat = new TestChat(id);
    await chat.sendMessage({ text: `hello ${key}` });
    expect(chat.error).toBeUndefined();
    expect(chat.status).toBe("ready");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(chat.messages[1])).toBe("First answer.");

    // Second turn: the page goes away mid-stream (the turn goes on), a fresh chat resumes it.
    const sending = chat.sendMessage({ text: `again ${key}` });
    await eventually(async () => (textOf(chat.messages[3]).length > 0 ? true : undefined));
    await chat.stop();
    await sending;
    const partial = textOf(chat.messages[3]);
    expect(partial.length).toBeLessThan("A slow second answer, streamed in many small pieces.".length);

    const reloaded = new TestChat(id, chat.messages.slice(0, 3));
    await reloaded.resumeStream();
    expect(reloaded.error).toBeUndefined();
    expect(reloaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(textOf(reloaded.messages[3])).toBe("A slow second answer, streamed in many small pieces.");
    // The server's transcript agrees with what the resumed client holds.
    const stored = await readSession(id);
    expect(stored.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(stored.messages[2]?.parts).toEqual([{ type: "text", text: `again ${key}` }]);
  }, 30_000);

  it("reads the last user message's text parts; refuses bodies of neither form, naming both", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "ok" }]);
    const body = {
      id,
      trigger: "submit-message",
      messageId: undefined,
      extra: { ignored: true },
      messages: [
        { id: "m1", role: "user", parts: [{ type: "text", text: "earlier" }] },
        { id: "m2", role: "assistant", parts: [{ type: "text", text: "earlier answer" }] },
        {
          id: "m3",
          role: "user",
          parts: [
            { type: "text", text: `part one ${key}` },
            { type: "file", url: "data:," },
            { type: "text", text: "two" },
          ],
        },
      ],
    };
    const res = await postJson(`/api/sessions/${id}/messages`, body);
    expect(res.status).toBe(200);
    expect(parseFrames(await res.text()).at(-1)?.data).toBe("[DONE]");
    expect((await readSession(id)).messages[0]?.parts).toEqual([{ type: "text", text: `part one ${key}\n\ntwo` }]);

    const refusals: [unknown, string][] = [
      [{}, "{ text }"],
      [{ id, trigger: "submit-message" }, "messages"],
      [{ messages: [] }, "user"],
      [{ messages: [{ role: "assistant", parts: [{ type: "text", text: "x" }] }] }, "user"],
      [{ messages: [{ role: "user", parts: [{ type: "file", url: "data:," }] }] }, "no text"],
      [{ messages: "hi" }, "messages"],
      [{ text: "" }, "empty"],
      [{ text: "hi", extra: 1 }, "extra"],
    ];
    for (const [bad, needle] of refusals) {
      const r = await postJson(`/api/sessions/${id}/messages`, bad);
      const err = ((await r.json()) as { error: { code: string; message: string } }).error;
      expect([JSON.stringify(bad), r.status, err.code]).toEqual([JSON.stringify(bad), 400, "invalid_input"]);
      expect(err.message).toContain(needle);
    }
    expect((await readSession(id)).messages).toHaveLength(2);
  });
});

describe("a standard EventSource", () => {
  it("receives a finished turn once, reconnects with Last-Event-ID, gets 204 and stops", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "Finished before anyone listened." }]);
    const { frames } = await sendAndRead(id, `tell me ${key}`);
    const lastId = frames.filter((f) => f.id !== undefined).at(-1)?.id ?? -1;
    expect(lastId).toBeGreaterThan(0);

    const requests: Request[] = [];
    const source = new EventSource(`${BASE}/api/sessions/${id}/stream?from=0`, { fetch: workerFetch(requests) });
    const received: { id: string; data: string }[] = [];
    // Listeners, not `onmessage`: workerd's EventTarget also calls `on<type>` properties itself,
    // which would deliver each event twice to the property handler (a test-runtime quirk).
    source.addEventListener("message", (e) => void received.push({ id: e.lastEventId, data: String(e.data) }));
    const closed = new Promise<{ code: number | undefined }>((resolve) => {
      source.addEventListener("error", (e) => {
        if (source.readyState === EventSource.CLOSED) resolve({ code: e.code });
      });
    });
    const end = await closed;
    source.close();
    expect(end.code).toBe(204);
    // Each stored event exactly once (then the protocol's [DONE]), and exactly two connections.
    const events = received.filter((r) => r.data !== "[DONE]");
    expect(events.map((r) => Number(r.id))).toEqual(frames.filter((f) => f.id !== undefined).map((f) => f.id));
    expect(received.at(-1)?.data).toBe("[DONE]");
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers.get("last-event-id")).toBeNull();
    expect(requests[1]?.headers.get("last-event-id")).toBe(String(lastId));
  }, 20_000);

  it("resumes after Last-Event-ID (it wins over ?from=), refuses a malformed one, and 204s past a finished turn", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "Some words to replay." }]);
    const { frames } = await sendAndRead(id, `go ${key}`);
    const ids = frames.filter((f) => f.id !== undefined).map((f) => f.id ?? -1);
    const mid = ids[Math.floor(ids.length / 2)] ?? 0;
    const resumed = await call(`/api/sessions/${id}/stream?from=0`, { headers: { "last-event-id": String(mid) } });
    expect(resumed.status).toBe(200);
    const rest = parseFrames(await resumed.text());
    expect(rest.filter((f) => f.id !== undefined).map((f) => f.id)).toEqual(ids.filter((i) => i > mid));
    expect(rest.at(-1)?.data).toBe("[DONE]");

    const past = await call(`/api/sessions/${id}/stream?from=${(ids.at(-1) ?? 0) + 1}`);
    expect(past.status).toBe(204);
    expect(await past.text()).toBe("");
    // The AI SDK's default resume path answers the same way.
    const sdkPath = await call(`/api/sessions/${id}/messages/${id}/stream`);
    expect(sdkPath.status).toBe(200);
    expect(parseFrames(await sdkPath.text()).filter((f) => f.id !== undefined)).toHaveLength(ids.length);
    expect((await call(`/api/sessions/${id}/messages/s_other/stream`)).status).toBe(404);

    for (const bad of ["abc", "-1", "1.5"]) {
      const r = await call(`/api/sessions/${id}/stream`, { headers: { "last-event-id": bad } });
      expect([bad, r.status]).toEqual([bad, 400]);
    }
  });
});

const SECRET = `whsec_${btoa("wyckoff-edge-clients-secret-0123456789")}`;

/** A webhook signed by the Standard Webhooks library, sent with Svix's header names. */
function svixSigned(body: unknown): { headers: Record<string, string>; body: string } {
  const text = JSON.stringify(body);
  const id = `msg_${crypto.randomUUID()}`;
  const at = new Date();
  return {
    headers: {
      "content-type": "application/json",
      "svix-id": id,
      "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
      "svix-signature": new Webhook(SECRET).sign(id, at, text),
    },
    body: text,
  };
}

function webhook(req: { headers: Record<string, string>; body: string }): Promise<Response> {
  return Promise.resolve(
    createApp().request(
      `${BASE}/api/webhooks/screenings`,
      { method: "POST", headers: req.headers, body: req.body },
      { ...testEnv, WEBHOOK_SECRET: SECRET },
    ),
  );
}

describe("Svix-branded webhooks", () => {
  it("accepts svix-* headers (the same id is the same task) and refuses a tampered one", async () => {
    const req = svixSigned({ board: "main", limit: 3 });
    const res = await webhook(req);
    expect(res.status).toBe(202);
    const { taskId } = (await res.json()) as { taskId: string };
    const again = await webhook(req);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ taskId, replayed: true });

    const tampered = await webhook({ ...req, body: JSON.stringify({ board: "star", limit: 3 }) });
    expect(tampered.status).toBe(401);
    const badSig = await webhook({ ...req, headers: { ...req.headers, "svix-signature": "v1,AAAA" } });
    expect(badSig.status).toBe(401);
    // One set or the other, never a mix: webhook-id with svix-signature is missing its own signature.
    const mixed = await webhook({
      ...req,
      headers: {
        "webhook-id": req.headers["svix-id"] ?? "",
        "svix-timestamp": req.headers["svix-timestamp"] ?? "",
        "svix-signature": req.headers["svix-signature"] ?? "",
      },
    });
    expect(mixed.status).toBe(401);
  });
});

describe("the official MCP client", () => {
  beforeAll(async () => {
    const cache = new D1MarketCache(createDb(testEnv.DB));
    const bundle = buildOfflineBundle({ sp500Csv });
    await cache.upsertSymbols(bundle.symbols, 0);
    for (const series of bundle.series) await cache.putSeries(series);
  }, 120_000);

  async function mcp(): Promise<Client> {
    const client = new Client({ name: "clients-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { fetch: workerFetch() }));
    return client;
  }

  it("sees the skills as prompts, reads a symbol's latest analysis as a resource, and gets −32602 for an unknown tool", async () => {
    const client = await mcp();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(["screen", "checkup", "report", "strategy", "backtest"]),
    );
    const prompt = await client.getPrompt({ name: "checkup", arguments: { user_input: "tech names" } });
    expect((prompt.messages[0]?.content as { text: string } | undefined)?.text).toContain(
      "Extra focus from the user: tech names",
    );

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["wyckoff://analysis/{symbol}"]);
    const read = await client.readResource({ uri: "wyckoff://analysis/SIM.0001" });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content).toMatchObject({ uri: "wyckoff://analysis/SIM.0001", mimeType: "application/json" });
    const value = JSON.parse(content.text) as {
      symbol: { id: string };
      latestDate: string;
      analysis: { asOf: string };
    };
    expect(value.symbol.id).toBe("SIM.0001");
    expect(value.analysis.asOf).toBe(value.latestDate);
    await expect(client.readResource({ uri: "wyckoff://analysis/NOPE.9999" })).rejects.toMatchObject({ code: -32002 });
    expect(Array.isArray((await client.listResources()).resources)).toBe(true);

    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // A known tool's own failure stays a tool result the model can read.
    const failed = await client.callTool({ name: "analyze_stock", arguments: { code: "SIM.0001", days: 9999 } });
    expect(failed.isError).toBe(true);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === "screen_stocks")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    await client.close();
  }, 30_000);

  it("answers a CORS preflight on /mcp for an allow-listed origin only", async () => {
    const preflight = (env: Record<string, string>) =>
      createApp().request(
        `${BASE}/mcp`,
        {
          method: "OPTIONS",
          headers: {
            origin: "https://inspector.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, mcp-protocol-version",
          },
        },
        { ...testEnv, ...env },
      );
    const allowed = await preflight({ CORS_ORIGINS: "https://inspector.example" });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    expect(allowed.headers.get("access-control-allow-methods")).toContain("POST");
    const closed = await preflight({});
    expect(closed.headers.get("access-control-allow-origin")).toBeNull();
    const other = await preflight({ CORS_ORIGINS: "https://pages.example" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("usage counted once, by purpose", () => {
  it("puts a delegation's tokens into the turn, the session and /api/usage, tagged subagent", async () => {
    const before = (await (await call("/api/usage?days=1")).json()) as UsageReportShape;
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      {
        toolCalls: [{ name: "delegate_to_research", arguments: { task: `find SIM.0001's sector ${key}` } }],
        usage: { prompt: 100, completion: 10 },
      },
      { text: "Research: the sector is simulated.", usage: { prompt: 1820, completion: 40 } },
      { text: "Done: simulated sector.", usage: { prompt: 200, completion: 20 } },
    ]);
    const { frames } = await sendAndRead(id, `delegate this ${key}`);
    const finish = frames
      .filter((f) => f.data !== "[DONE]")
      .map((f) => JSON.parse(f.data) as { type: string; messageMetadata?: { usage: { inputTokens: number } } })
      .find((c) => c.type === "finish");
    expect(finish?.messageMetadata?.usage.inputTokens).toBe(2120);
    expect((await readSession(id)).usage).toMatchObject({ inputTokens: 2120, outputTokens: 70 });

    const after = await eventually(async () => {
      const r = (await (await call("/api/usage?days=1")).json()) as UsageReportShape;
      return r.totals.inputTokens - before.totals.inputTokens >= 2120 ? r : undefined;
    });
    expect(after.totals.inputTokens - before.totals.inputTokens).toBe(2120);
    expect(after.totals.turns - before.totals.turns).toBe(1);
    const delta = (purpose: string) =>
      (after.byPurpose?.[purpose]?.inputTokens ?? 0) - (before.byPurpose?.[purpose]?.inputTokens ?? 0);
    expect(delta("subagent")).toBe(1820);
    expect(delta("turn")).toBe(300);
    const price = (input: number, output: number) => (input * 2 + output * 8) / 1_000_000;
    expect(after.totals.costUsd - before.totals.costUsd).toBeCloseTo(price(2120, 70), 9);
    expect(after.rows.find((r) => r.purpose === "subagent")).toMatchObject({ model: "scripted" });
  }, 30_000);
});

interface UsageReportShape {
  totals: { turns: number; inputTokens: number; costUsd: number };
  byPurpose?: Record<string, { inputTokens: number }>;
  rows: { model: string; purpose?: string }[];
}
