/**
 * The ecosystem's own clients against the worker, with no adaptation on their side: the AI SDK's
 * `AbstractChat` + `DefaultChatTransport` (default body, default resume path), npm `eventsource`
 * (reconnects with `Last-Event-ID`, stops on 204), a Svix-branded signed webhook, and the official
 * MCP client (prompts, a resource, −32602 for an unknown tool).
 */
import { AbstractChat, DefaultChatTransport, type ChatState, type ChatStatus, type UIMessage } from "ai";
import { exports } from "cloudflare:workers";
import { EventSource } from "eventsource";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
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
