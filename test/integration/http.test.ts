/**
 * The HTTP edge inside workerd: health, sessions through the Durable Object and D1, the error
 * envelope for bad input (never a 500), and the queue consumer's routing rules.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../worker/contracts/errors";
import worker from "../../worker/index";
import type { SessionAgent } from "../../worker/session/session-agent";
import { getAgentByName } from "agents";

const BASE = "http://wyckoff.test";

function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

function postJson(path: string, body: unknown): Promise<Response> {
  return call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function errorOf(
  res: Response,
): Promise<{ code: string; message: string; details?: { messages?: { en: string; zh: string } } }> {
  const body = (await res.json()) as {
    error: { code: string; message: string; details?: { messages?: { en: string; zh: string } } };
  };
  return body.error;
}

describe("GET /api/health", () => {
  it("reports the configured model and market-data mode", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = await res.json();
    expect(body).toEqual({
      ok: true,
      version: expect.any(String),
      model: { id: "scripted", offline: false },
      marketData: "offline",
    });
  });
});

describe("sessions", () => {
  it("creates a session in its Durable Object and reads it back", async () => {
    const created = await postJson("/api/sessions", { title: "贵州茅台 研究", profile: "cn-equity" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(id).toMatch(/^s_[0-9a-z]{26}$/);

    const read = await call(`/api/sessions/${id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({
      id,
      title: "贵州茅台 研究",
      profile: "cn-equity",
      createdAt: expect.any(String),
      messages: [],
      compaction: { summary: null, compactedThrough: null, count: 0 },
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        reasoningTokens: 0,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0,
      },
      audit: null,
      page: { limit: 200, older: null },
    });

    // The row lives in the DO's own SQLite, not only in D1.
    const stub = await getAgentByName<Env, SessionAgent>(env.SessionAgent, id);
    expect(JSON.parse((await stub.snapshotJson()) ?? "null")).toMatchObject({ id, title: "贵州茅台 研究" });
  });

  it("lists the owner's sessions, newest first, with a default title", async () => {
    const a = (await (await postJson("/api/sessions", {})).json()) as { id: string };
    const b = (await (await postJson("/api/sessions", { title: "second" })).json()) as { id: string };
    const res = await call("/api/sessions");
    const { sessions } = (await res.json()) as { sessions: { id: string; title: string }[] };
    const ids = sessions.map((s) => s.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
    expect(sessions.find((s) => s.id === a.id)?.title).toBe("New session");
  });

  it("answers 404 for unknown or malformed session ids", async () => {
    const unknown = await call("/api/sessions/s_0000000000000000000000000a");
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("not_found");
    const junk = await call("/api/sessions/..%2F..%2Fetc");
    expect(junk.status).toBe(404);
  });
});

describe("paged session reads", () => {
  it("returns the latest page and a cursor that walks back through every message once, in order", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { id } = (await (await postJson("/api/sessions", { title: "long" })).json()) as { id: string };
    const stub = await getAgentByName<Env, SessionAgent>(env.SessionAgent, id);
    await runInDurableObject(stub, (instance: SessionAgent) => {
      for (let i = 0; i < 250; i++)
        instance["store"].appendMessage(
          { id: `m_${i}`, role: i % 2 ? "assistant" : "user", parts: [{ type: "text", text: `n${i}` }] },
          i,
        );
    });
    type Page = { messages: { id: string }[]; page: { limit: number; older: string | null } };
    const first = (await (await call(`/api/sessions/${id}`)).json()) as Page;
    expect(first.messages).toHaveLength(200);
    expect(first.messages.at(-1)?.id).toBe("m_249");
    expect(first.page.older).not.toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const res = await call(`/api/sessions/${id}?limit=60${cursor ? `&before=${cursor}` : ""}`);
      const page = (await res.json()) as Page;
      seen.unshift(...page.messages.map((m) => m.id));
      cursor = page.page.older;
      if (!cursor) break;
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `m_${i}`));
    for (const bad of ["limit=0", "limit=501", "limit=x", "before=abc", "before=-1", `before=${"9".repeat(40)}`]) {
      const res = await call(`/api/sessions/${id}?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
    }
    // Share links page the same way.
    const share = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    const shared = (await (await call(`/api/shares/${share.token}?limit=10`)).json()) as Page;
    expect(shared.messages.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => `m_${240 + i}`));
    expect(shared.page.older).not.toBeNull();
  });
});

describe("bad input", () => {
  it("rejects malformed JSON with 400 and creates nothing", async () => {
    const before = ((await (await call("/api/sessions")).json()) as { sessions: unknown[] }).sessions.length;
    const res = await call("/api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{title:",
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: "invalid_input",
      message: "request body is not valid JSON",
      details: {
        field: "(body)",
        reason: "invalid_json",
        messages: { en: "request body is not valid JSON", zh: "请求体不是有效的 JSON" },
      },
    });
    const after = ((await (await call("/api/sessions")).json()) as { sessions: unknown[] }).sessions.length;
    expect(after).toBe(before);
  });

  it("names the failing field", async () => {
    const res = await postJson("/api/sessions", { title: 42 });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^title: /);
    const extra = await postJson("/api/sessions", { title: "x", owner: "mallory" });
    expect(extra.status).toBe(400);
    // the same issue in both UI languages (zod's zh-CN locale on the same parse), the English as the message
    const typed = await errorOf(await postJson("/api/sessions", { title: 42 }));
    expect(typed.details?.messages).toEqual({ en: typed.message, zh: "title: 无效输入：期望 string，实际接收 数字" });
    expect((await errorOf(extra)).details?.messages).toEqual({
      en: expect.stringMatching(/^\(body\): /),
      zh: '（请求体）: 出现未知的键(key): "owner"',
    });
    const symbol = await errorOf(await call(`/api/market/bars/${"A".repeat(41)}`));
    expect(symbol.details?.messages).toMatchObject({ zh: expect.stringMatching(/^symbol：/) });
    const array = await postJson("/api/sessions", [1, 2]);
    expect(array.status).toBe(400);
  });

  it("says the sessions, shares, memory and usage query checks in both UI languages", async () => {
    const { id } = (await (await postJson("/api/sessions", {})).json()) as { id: string };
    const share = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    const cases: [string, RequestInit | undefined, RegExp, RegExp][] = [
      [`/api/sessions/${id}?limit=0`, undefined, /^limit: /, /^limit：.*[\u4e00-\u9fff]/],
      [
        `/api/sessions/${id}?before=abc`,
        undefined,
        /^before must be a cursor/,
        /^before 必须是 page\.older 给出的游标$/,
      ],
      [`/api/sessions/${id}/stream?from=x`, undefined, /^from must be/, /^from 必须是非负整数$/],
      [
        `/api/sessions/${id}/stream`,
        { headers: { "last-event-id": "-3" } },
        /^Last-Event-ID must/,
        /^Last-Event-ID 必须是非负整数/,
      ],
      [`/api/sessions/${id}/turn?wait=26`, undefined, /^wait must be at most 25/, /^wait 最多 25 秒$/],
      [`/api/sessions/${id}/trace?turn=nope`, undefined, /^turn must be a turn id/, /^turn 必须是轮次 id/],
      [`/api/shares/${share.token}?limit=x`, undefined, /^limit: /, /^limit：.*[\u4e00-\u9fff]/],
      ["/api/memory?type=nope", undefined, /^type: /, /^type：.*[\u4e00-\u9fff]/],
      ["/api/usage?days=0", undefined, /^days: /, /^days：.*[\u4e00-\u9fff]/],
    ];
    for (const [path, init, en, zh] of cases) {
      const res = await call(path, init);
      expect([path, res.status]).toEqual([path, 400]);
      const error = await errorOf(res);
      expect([path, error.code]).toEqual([path, "invalid_input"]);
      expect(error.message).toMatch(en);
      expect(error.details?.messages?.en).toBe(error.message);
      expect(error.details?.messages?.zh).toMatch(zh);
    }
  });

  it("answers 413 for bodies over the limit", async () => {
    const res = await postJson("/api/sessions", { title: "x".repeat(3 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("payload_too_large");
  });

  it("refuses malformed escapes and out-of-shape path parameters with the envelope, never a 500", async () => {
    const { id } = (await (await postJson("/api/sessions", { title: "params" })).json()) as { id: string };
    const share = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    const cases: [string, number][] = [
      ["/api/market/bars/%E0%A4%A", 400],
      ["/api/market/bars/%E0%A4", 400],
      ["/api/market/bars/%", 400],
      [`/api/market/bars/${"A".repeat(41)}`, 400],
      ["/api/market/bars/%3Cscript%3E", 400],
      [`/api/shares/${share.token}/bars/%`, 400],
      [`/api/shares/${share.token}/bars/${"x".repeat(300)}`, 400],
      [`/api/shares/${"shr_".padEnd(1100, "a")}`, 404],
      [`/api/sessions/${id}/spills/${"t".repeat(1100)}/call_1`, 404],
      [`/api/sessions/${id}/spills/t_00000000000000000000000000/${"c".repeat(1100)}`, 404],
      [`/api/sessions/${"s_".padEnd(1100, "x")}`, 404],
      [`/api/sessions/${id}/approvals/${"a".repeat(500)}`, 404],
      [`/api/memory/${"m".repeat(1100)}/trace`, 404],
      [`/api/tasks/${"%ZZ"}`, 400],
      [`/api/skills/${"S".repeat(100)}`, 404],
      [`/api/hints/${"h".repeat(1100)}`, 404],
      [`/api/tokens/${"k".repeat(1100)}`, 404],
      [`/api/${"p/".repeat(1100)}`, 400],
    ];
    for (const [path, status] of cases) {
      const method = path.includes("/approvals/")
        ? "POST"
        : path.startsWith("/api/skills/") || path.startsWith("/api/hints/") || path.startsWith("/api/tokens/")
          ? "DELETE"
          : "GET";
      const res = await call(
        path,
        method === "POST"
          ? { method, headers: { "content-type": "application/json" }, body: '{"decision":"allow"}' }
          : { method },
      );
      expect([path.slice(0, 60), res.status]).toEqual([path.slice(0, 60), status]);
      expect(ErrorEnvelope.safeParse(await res.json()).success, path.slice(0, 60)).toBe(true);
    }
  });

  it("answers 404 with the envelope for unknown API routes and methods", async () => {
    const res = await call("/api/nope");
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe("not_found");
    const method = await call("/api/health", { method: "DELETE" });
    expect(method.status).toBe(404);
  });
});

describe("queue consumer", () => {
  it("dead-letters unknown kinds and malformed bodies without failing the batch", async () => {
    const batch = createMessageBatch<unknown>("wyckoff-edge-background", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "no_such_kind" } },
      { id: "m2", timestamp: new Date(), attempts: 1, body: "not an object" },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
  });
});

describe("local identity mode", () => {
  it("serves loopback clients and refuses others", async () => {
    const local = await call("/api/sessions", { headers: { "cf-connecting-ip": "127.0.0.1" } });
    expect(local.status).toBe(200);
    const remote = await call("/api/sessions", { headers: { "cf-connecting-ip": "203.0.113.9" } });
    expect(remote.status).toBe(403);
    // The whole address is parsed: a "127." prefix is not loopback.
    for (const ip of ["127.evil", "127.0.0.1.example.com", "::ffff:127.evil"])
      expect((await call("/api/sessions", { headers: { "cf-connecting-ip": ip } })).status, ip).toBe(403);
    expect((await errorOf(remote)).code).toBe("forbidden");
    // Health stays public so load balancers and the page can check liveness.
    expect((await call("/api/health", { headers: { "cf-connecting-ip": "203.0.113.9" } })).status).toBe(200);
  });
});

describe("rename and delete", () => {
  it("renames a session in the DO and the index", async () => {
    const { id } = (await (await postJson("/api/sessions", { title: "old" })).json()) as { id: string };
    const res = await call(`/api/sessions/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "新标题" }),
    });
    expect(res.status).toBe(200);
    expect(((await (await call(`/api/sessions/${id}`)).json()) as { title: string }).title).toBe("新标题");
    const { sessions } = (await (await call("/api/sessions")).json()) as { sessions: { id: string; title: string }[] };
    expect(sessions.find((s) => s.id === id)?.title).toBe("新标题");
    const bad = await call(`/api/sessions/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "" }),
    });
    expect(bad.status).toBe(400);
  });

  it("deletes a session: gone from the list and 404 afterwards", async () => {
    const { id } = (await (await postJson("/api/sessions", { title: "to delete" })).json()) as { id: string };
    expect((await call(`/api/sessions/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/sessions/${id}`)).status).toBe(404);
    expect((await call(`/api/sessions/${id}`, { method: "DELETE" })).status).toBe(404);
    const { sessions } = (await (await call("/api/sessions")).json()) as { sessions: { id: string }[] };
    expect(sessions.some((s) => s.id === id)).toBe(false);
  });
  it("a deletion whose erase failed after the index row went still refuses the owner's turns (404)", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { id } = (await (await postJson("/api/sessions", { title: "half deleted" })).json()) as { id: string };
    const stub = await getAgentByName<Env, SessionAgent>(env.SessionAgent, id);
    // Erasing the DO fails (storage trouble) after the D1 index row was removed.
    const proto = await runInDurableObject(
      stub,
      (instance: SessionAgent) => Object.getPrototypeOf(instance) as SessionAgent,
    );
    const erase = proto.erase;
    proto.erase = () => Promise.reject(new Error("erase failed"));
    try {
      expect((await call(`/api/sessions/${id}`, { method: "DELETE" })).status).toBe(500);
    } finally {
      proto.erase = erase;
    }
    // The DO still holds the session, yet it is deleted for everyone, its owner included.
    expect(await runInDurableObject(stub, (instance: SessionAgent) => instance["store"].meta()?.id)).toBe(id);
    expect((await call(`/api/sessions/${id}`)).status).toBe(404);
    const turn = await postJson(`/api/sessions/${id}/messages`, { text: "still there?" });
    expect(turn.status).toBe(404);
    expect((await errorOf(turn)).code).toBe("not_found");
    expect(await runInDurableObject(stub, (instance: SessionAgent) => instance["turns"].lastTurn())).toBeUndefined();
    // A task's notification opens no turn in it either.
    await stub.notify({ id: "task_after_delete", text: "done" });
    expect(await runInDurableObject(stub, (instance: SessionAgent) => instance["turns"].lastTurn())).toBeUndefined();
  });
});
