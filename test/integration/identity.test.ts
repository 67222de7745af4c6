/**
 * Identity, portfolios and share links inside workerd: token mode (admin and self-service tokens,
 * two users who cannot see each other's anything), Access JWTs against a local key set, share links
 * (read-only, live, refused on every write route, revoked/expired → 404 like a wrong token), the
 * portfolio routes and tools (approval before any write, 400 naming the field), rate limits and CORS.
 */
import { createExecutionContext } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey as JoseKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { D1MemoryStore } from "../../worker/storage/memory-repo";
import { D1PortfolioStore } from "../../worker/storage/portfolio-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { D1TaskRepo } from "../../worker/storage/task-repo";
import { testEnv } from "./test-env";
import { call, chunksOf, parseFrames, postJson, readUntil, script } from "./turn-helpers";

const BASE = "http://wyckoff.test";
const ADMIN = "admin-secret-for-the-identity-tests";
const db = createDb(testEnv.DB);
const portfolios = new D1PortfolioStore(db);

type Env = Record<string, unknown>;
const TOKEN_ENV: Env = { ...testEnv, AUTH_MODE: "token", ADMIN_TOKEN: ADMIN };
const app = createApp();

interface Init extends RequestInit {
  token?: string;
  json?: unknown;
}

/** Calls a fresh-per-file app with explicit bindings (like market.test.ts's MARKET_DATA=live). */
async function req(path: string, init: Init = {}, env: Env = TOKEN_ENV, target = app): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return target.request(`${BASE}${path}`, { ...init, headers, body: body ?? null }, env, createExecutionContext());
}

async function errorOf(res: Response): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  return ((await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

async function adminToken(user: string): Promise<{ id: string; token: string }> {
  const res = await req("/api/admin/tokens", { method: "POST", token: ADMIN, json: { user } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

async function createSession(token: string, title: string): Promise<string> {
  const res = await req("/api/sessions", { method: "POST", token, json: { title } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function share(path: string, init: Init = {}): Promise<Response> {
  return call(path, init);
}

async function newLocalSession(title: string): Promise<string> {
  return ((await (await postJson("/api/sessions", { title })).json()) as { id: string }).id;
}

async function createShare(sessionId: string, body: unknown = {}): Promise<{ id: string; token: string; url: string }> {
  const res = await postJson(`/api/sessions/${sessionId}/share`, body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string; url: string };
}

beforeAll(async () => {
  // The universe (symbols) plus the series the portfolio diagnoses read.
  const bundle = buildOfflineBundle({ sp500Csv });
  const cache = new D1MarketCache(db);
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series)
    if (["SIM.0001", "SIM.0002", "SIM.IDX1"].includes(s.symbolId)) await cache.putSeries(s);
});

describe("admin token routes", () => {
  it("are refused without ADMIN_TOKEN set, or with a wrong one; create, list and revoke with the right one", async () => {
    const unset = await req(
      "/api/admin/tokens",
      { method: "POST", token: ADMIN, json: { user: "x" } },
      {
        ...testEnv,
        AUTH_MODE: "token",
      },
    );
    expect(unset.status).toBe(403);
    const wrong = await req("/api/admin/tokens", { method: "POST", token: `${ADMIN}x`, json: { user: "x" } });
    expect(wrong.status).toBe(401);
    expect((await req("/api/admin/tokens", { method: "POST", json: { user: "x" } })).status).toBe(401);
    const bad = await req("/api/admin/tokens", { method: "POST", token: ADMIN, json: { user: "two words" } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.["field"]).toBe("user");

    const created = await adminToken("carol@example.com");
    expect(created.token).toMatch(/^wk_[0-9a-z]{52}$/);
    const listed = (await (await req("/api/admin/tokens?user=carol@example.com", { token: ADMIN })).json()) as {
      tokens: Record<string, unknown>[];
    };
    expect(listed.tokens).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    // Only the hash is stored.
    const stored = await testEnv.DB.prepare("select token_hash from api_tokens where id = ?").bind(created.id).first();
    expect(stored?.["token_hash"]).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const me = await req("/api/me", { token: created.token });
    expect(await me.json()).toEqual({ user: "carol@example.com", authMode: "token", tokenId: created.id });
    expect((await req(`/api/admin/tokens/${created.id}`, { method: "DELETE", token: ADMIN })).status).toBe(204);
    expect((await req(`/api/admin/tokens/${created.id}`, { method: "DELETE", token: ADMIN })).status).toBe(404);
    expect((await req("/api/me", { token: created.token })).status).toBe(401);
  });
});

describe("token mode", () => {
  it("answers 401 without a token, and the same 401 for a wrong or a revoked token", async () => {
    const none = await req("/api/sessions");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    const { id, token } = await adminToken("dave");
    expect((await req("/api/sessions", { token })).status).toBe(200);
    await req(`/api/admin/tokens/${id}`, { method: "DELETE", token: ADMIN });
    const revoked = await req("/api/sessions", { token });
    const wrong = await req("/api/sessions", { token: `wk_${"0".repeat(52)}` });
    expect([revoked.status, wrong.status]).toEqual([401, 401]);
    expect(await revoked.text()).toBe(await wrong.text());
  });

  it("lets a signed-in user create, list and revoke their own tokens (another user's id → 404)", async () => {
    const erin = await adminToken("erin");
    const frank = await adminToken("frank");
    const own = await req("/api/tokens", { method: "POST", token: erin.token, json: { label: "laptop" } });
    expect(own.status).toBe(201);
    const second = (await own.json()) as { id: string; token: string; user: string; label: string };
    expect(second).toMatchObject({ user: "erin", label: "laptop" });
    expect((await req("/api/me", { token: second.token })).status).toBe(200);
    const list = (await (await req("/api/tokens", { token: erin.token })).json()) as { tokens: { id: string }[] };
    expect(list.tokens.map((t) => t.id).sort()).toEqual([erin.id, second.id].sort());
    expect((await req(`/api/tokens/${second.id}`, { method: "DELETE", token: frank.token })).status).toBe(404);
    expect((await req(`/api/tokens/${second.id}`, { method: "DELETE", token: erin.token })).status).toBe(204);
    expect((await req("/api/me", { token: second.token })).status).toBe(401);
  });

  it("keeps two users apart: sessions, tasks, memory, portfolios and shares answer 404 across users", async () => {
    const alice = await adminToken("alice");
    const bob = await adminToken("bob");
    const a = await createSession(alice.token, "alice's research");

    // Sessions: reads, writes and the stream all answer 404, and the list does not show it.
    for (const [method, path, json] of [
      ["GET", `/api/sessions/${a}`, undefined],
      ["PATCH", `/api/sessions/${a}`, { title: "mine now" }],
      ["GET", `/api/sessions/${a}/stream`, undefined],
      ["POST", `/api/sessions/${a}/messages`, { text: "hi" }],
      // The session DO checks a turn's owner itself; a bad body still answers 404, not 400.
      ["POST", `/api/sessions/${a}/messages`, { text: "" }],
      ["POST", `/api/sessions/${a}/messages`, { nope: 1 }],
      ["POST", `/api/sessions/${a}/cancel`, undefined],
      ["POST", `/api/sessions/${a}/approvals/a_x`, { decision: "allow" }],
      ["POST", `/api/sessions/${a}/share`, {}],
      ["DELETE", `/api/sessions/${a}`, undefined],
    ] as const) {
      const res = await req(path, { method, token: bob.token, ...(json ? { json } : {}) });
      expect([path, method, res.status]).toEqual([path, method, 404]);
    }
    const bobList = (await (await req("/api/sessions", { token: bob.token })).json()) as { sessions: unknown[] };
    expect(bobList.sessions).toEqual([]);
    const own = await req(`/api/sessions/${a}`, { token: alice.token });
    expect(own.status).toBe(200);
    // Bob's messages wrote nothing into Alice's session.
    expect(((await own.json()) as { messages: unknown[] }).messages).toEqual([]);

    // Tasks: the owner-scoped reader (what check_background_tasks and the task routes use).
    await db.insert(tasksTable).values({
      id: "task_a11ce00000000000000000000a",
      kind: "screen",
      ownerId: "alice",
      sessionId: a,
      status: "queued",
      createdAt: 1,
      updatedAt: 1,
    });
    const taskRepo = new D1TaskRepo(db);
    expect(await taskRepo.get("bob", "task_a11ce00000000000000000000a")).toBeNull();
    expect(await taskRepo.listForSession("bob", a)).toEqual([]);
    expect((await taskRepo.get("alice", "task_a11ce00000000000000000000a"))?.id).toBe(
      "task_a11ce00000000000000000000a",
    );
    expect((await req("/api/tasks/task_a11ce00000000000000000000a", { token: alice.token })).status).toBe(200);
    expect((await req("/api/tasks/task_a11ce00000000000000000000a", { token: bob.token })).status).toBe(404);
    expect(
      (await req("/api/tasks/task_a11ce00000000000000000000a/cancel", { method: "POST", token: bob.token })).status,
    ).toBe(404);

    // Memory.
    const [memoryId] = await new D1MemoryStore(testEnv.DB, () => "mem_alice_1").add(
      "alice",
      [
        {
          type: "preference",
          content: "Alice prefers springs on low volume",
          keywords: ["spring"],
          codes: [],
          origin: "user",
          source: { sessionId: a, messageIds: [] },
        },
      ],
      Date.now(),
    );
    const memoryOf = async (token: string) => JSON.stringify(await (await req("/api/memory", { token })).json());
    expect(await memoryOf(alice.token)).toContain("Alice prefers");
    expect(await memoryOf(bob.token)).not.toContain("Alice prefers");
    for (const [method, path] of [
      ["GET", `/api/memory/${memoryId}/trace`],
      ["DELETE", `/api/memory/${memoryId}`],
    ] as const) {
      expect([path, (await req(path, { method, token: bob.token })).status]).toEqual([path, 404]);
    }
    const patch = await req(`/api/memory/${memoryId}`, { method: "PATCH", token: bob.token, json: { content: "x" } });
    expect(patch.status).toBe(404);
    expect(await memoryOf(alice.token)).toContain("Alice prefers");

    // Portfolios.
    const add = await req("/api/portfolio/changes", {
      method: "POST",
      token: alice.token,
      json: { action: "add", code: "SIM.0001", shares: 100, cost: 10 },
    });
    expect(add.status).toBe(200);
    const bobView = (await (await req("/api/portfolio", { token: bob.token })).json()) as {
      portfolio: { positionCount: number };
      trades: unknown[];
    };
    expect(bobView).toMatchObject({ portfolio: { positionCount: 0 }, trades: [] });
    const remove = await req("/api/portfolio/changes", {
      method: "POST",
      token: bob.token,
      json: { action: "remove", code: "SIM.0001" },
    });
    expect(remove.status).toBe(400);
    expect((await portfolios.read("alice")).positionCount).toBe(1);

    // Shares.
    const created = (await (
      await req(`/api/sessions/${a}/share`, { method: "POST", token: alice.token, json: {} })
    ).json()) as { id: string; token: string };
    expect(((await (await req("/api/shares", { token: bob.token })).json()) as { shares: unknown[] }).shares).toEqual(
      [],
    );
    expect((await req(`/api/shares/${created.id}`, { method: "DELETE", token: bob.token })).status).toBe(404);
    expect((await req(`/api/shares/${created.token}`, { method: "DELETE", token: bob.token })).status).toBe(404);
    const aliceShares = (await (await req("/api/shares", { token: alice.token })).json()) as {
      shares: { id: string; sessionTitle: string }[];
    };
    expect(aliceShares.shares).toMatchObject([{ id: created.id, sessionTitle: "alice's research" }]);
    expect((await req(`/api/shares/${created.token}`, {}, TOKEN_ENV)).status).toBe(200);
  });

  it("limits turns per user per hour with 429 and Retry-After", async () => {
    const env = { ...TOKEN_ENV, RATE_LIMIT_TURNS_PER_HOUR: "2" };
    const gina = await adminToken("gina");
    const hank = await adminToken("hank");
    const g = await createSession(gina.token, "g");
    const key = `k-rate-${g}`;
    await script(key, [{ text: "one" }, { text: "two" }]);
    for (const n of [1, 2]) {
      const res = await req(
        `/api/sessions/${g}/messages`,
        { method: "POST", token: gina.token, json: { text: `${n} ${key}` } },
        env,
      );
      expect(res.status).toBe(200);
      await res.text();
    }
    const third = await req(
      `/api/sessions/${g}/messages`,
      { method: "POST", token: gina.token, json: { text: key } },
      env,
    );
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(third)).code).toBe("rate_limited");
    // Another user has their own window.
    const h = await createSession(hank.token, "h");
    const other = await req(
      `/api/sessions/${h}/messages`,
      { method: "POST", token: hank.token, json: { text: "" } },
      env,
    );
    expect(other.status).toBe(400);
    // Over the limit, the 429 wins before anything else is looked at or written: another owner's
    // session, a malformed id and a bad body all answer 429 too, and the refused turn left nothing.
    for (const [path, json] of [
      [`/api/sessions/${h}/messages`, { text: key }],
      ["/api/sessions/not-a-session-id/messages", { text: key }],
      [`/api/sessions/${g}/messages`, { text: "" }],
    ] as const) {
      const refused = await req(path, { method: "POST", token: gina.token, json }, env);
      expect(refused.status).toBe(429);
      expect((await errorOf(refused)).code).toBe("rate_limited");
    }
    const detail = (await (await req(`/api/sessions/${g}`, { token: gina.token }, env)).json()) as {
      messages: { role: string }[];
    };
    expect(detail.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });
});

describe("access mode", () => {
  const ISSUER = "https://wyckoff-team.cloudflareaccess.com";
  const AUD = "aud-tag-0123456789";
  const ACCESS_ENV: Env = { ...testEnv, AUTH_MODE: "access", ACCESS_ISSUER: ISSUER, ACCESS_AUD: AUD };
  let good: { privateKey: JoseKey; jwk: JWK };
  let forger: { privateKey: JoseKey };
  let accessApp: ReturnType<typeof createApp>;
  const fetched: string[] = [];

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    good = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" } };
    forger = { privateKey: (await generateKeyPair("ES256")).privateKey };
    accessApp = createApp({
      fetch: async (url) => {
        fetched.push(String(url));
        return Response.json({ keys: [good.jwk] });
      },
    });
  });

  function sign(key: JoseKey, claims: { aud?: string; iss?: string; exp?: number; email?: string }) {
    return new SignJWT({ email: claims.email ?? "Ivy@Example.com" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(claims.iss ?? ISSUER)
      .setAudience(claims.aud ?? AUD)
      .setSubject("0b9f-user")
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(key);
  }

  const asAccess = (headers: Record<string, string>) => req("/api/me", { headers }, ACCESS_ENV, accessApp);

  it("accepts a valid Access JWT (header or cookie) and names the user by email", async () => {
    const jwt = await sign(good.privateKey, {});
    const res = await asAccess({ "cf-access-jwt-assertion": jwt });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: "ivy@example.com", authMode: "access", tokenId: null });
    expect(fetched[0]).toBe(`${ISSUER}/cdn-cgi/access/certs`);
    expect((await asAccess({ cookie: `other=1; CF_Authorization=${jwt}` })).status).toBe(200);
  });

  it("answers 401 for a forged, expired, foreign-audience or foreign-issuer JWT, or none", async () => {
    const cases = {
      forged: await sign(forger.privateKey, {}),
      expired: await sign(good.privateKey, { exp: Math.floor(Date.now() / 1000) - 3600 }),
      audience: await sign(good.privateKey, { aud: "someone-else" }),
      issuer: await sign(good.privateKey, { iss: "https://evil.cloudflareaccess.com" }),
      garbage: "not.a.jwt",
    };
    for (const [name, jwt] of Object.entries(cases)) {
      const res = await asAccess({ "cf-access-jwt-assertion": jwt });
      expect([name, res.status]).toEqual([name, 401]);
      expect((await errorOf(res)).code).toBe("unauthorized");
    }
    const expired = await asAccess({ "cf-access-jwt-assertion": cases.expired });
    expect((await errorOf(expired)).message).toContain("expired");
    expect((await asAccess({})).status).toBe(401);
  });

  it("refuses to start without its issuer and audience settings", async () => {
    const res = await req("/api/health", {}, { ...testEnv, AUTH_MODE: "access" });
    expect(res.status).toBe(500);
    expect((await errorOf(res)).message).toContain("ACCESS_ISSUER");
  });
});

describe("share links", () => {
  it("shows the session read-only, with a marker and without owner data", async () => {
    const id = await newLocalSession("shared research");
    const created = await createShare(id);
    expect(created.token).toMatch(/^shr_[0-9a-z]{52}$/);
    expect(created.url).toBe(`${BASE}/s/${created.token}`);
    const res = await share(`/api/shares/${created.token}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id, title: "shared research", shared: { readOnly: true, expiresAt: null } });
    expect(JSON.stringify(body)).not.toContain("ownerId");
    const stored = await testEnv.DB.prepare("select token_hash from shares where id = ?").bind(created.id).first();
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it("refuses a share token on every write route", async () => {
    const id = await newLocalSession("write attempts");
    const { token } = await createShare(id);
    const writes: [string, string, unknown][] = [
      ["POST", "/api/sessions", {}],
      ["POST", `/api/sessions/${id}/messages`, { text: "hello" }],
      ["POST", `/api/sessions/${id}/cancel`, {}],
      ["POST", `/api/sessions/${id}/approvals/a_x`, { decision: "allow" }],
      ["POST", `/api/sessions/${id}/share`, {}],
      ["PATCH", `/api/sessions/${id}`, { title: "taken over" }],
      ["DELETE", `/api/sessions/${id}`, undefined],
      ["DELETE", `/api/shares/${token}`, undefined],
      ["POST", "/api/portfolio/changes", { action: "set_cash", freeCash: 1 }],
      ["POST", "/api/portfolio/import", { csv: "code,shares,cost\nSIM.0001,1,1" }],
      ["POST", "/api/tokens", {}],
      ["DELETE", "/api/memory/m_x", undefined],
    ];
    for (const [method, path, json] of writes) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (json !== undefined) headers["content-type"] = "application/json";
      const res = await call(path, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    // Nor do reads beyond the transcript accept it (memory, portfolio, other sessions).
    for (const path of ["/api/portfolio", "/api/memory", `/api/sessions/${id}`, "/api/sessions"]) {
      expect((await call(path, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
    }
    // And nothing under the share path writes.
    expect((await call(`/api/shares/${token}/messages`, { method: "POST", body: "{}" })).status).toBe(404);
    // The session is untouched and the share still works.
    expect((await share(`/api/shares/${token}`)).status).toBe(200);
    expect(((await (await call(`/api/sessions/${id}`)).json()) as { title: string }).title).toBe("write attempts");
  });

  it("answers 404 for revoked, expired and wrong tokens alike, and at once after revoking", async () => {
    const id = await newLocalSession("revocable");
    const byToken = await createShare(id);
    const byId = await createShare(id);
    const expiring = await createShare(id, { expiresInHours: 1 });
    expect((await share(`/api/shares/${byToken.token}`)).status).toBe(200);
    expect((await call(`/api/shares/${byToken.token}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/shares/${byId.id}`, { method: "DELETE" })).status).toBe(204);
    await testEnv.DB.prepare("update shares set expires_at = ? where id = ?")
      .bind(Date.now() - 1, expiring.id)
      .run();
    const answers = await Promise.all(
      [byToken.token, byId.token, expiring.token, `shr_${"0".repeat(52)}`, "junk"].map(async (t) => {
        const res = await share(`/api/shares/${t}`);
        return { status: res.status, body: await res.text() };
      }),
    );
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]?.status).toBe(404);
    expect((await share(`/api/shares/${byToken.token}/stream`)).status).toBe(404);
    const list = (await (await call("/api/shares")).json()) as { shares: { id: string; expired: boolean }[] };
    expect(list.shares.find((s) => s.id === expiring.id)?.expired).toBe(true);
    expect(list.shares.some((s) => s.id === byToken.id || s.id === byId.id)).toBe(false);
  });

  it("lets a viewer watch a running turn live through the share stream", async () => {
    const id = await newLocalSession("live");
    const { token } = await createShare(id);
    const key = `k-live-${id}`;
    await script(key, [{ text: "The spring held; volume dried up on the test.", chunkDelayMs: 60, chunkSize: 4 }]);
    const turn = await postJson(`/api/sessions/${id}/messages`, { text: `watch ${key}` });
    const { frames, reader } = await readUntil(turn.body as ReadableStream<Uint8Array>, (c) => c.type === "text-delta");
    await reader.cancel();
    const watched = await share(`/api/shares/${token}/stream?from=0`);
    expect(watched.status).toBe(200);
    expect(watched.headers.get("content-type")).toContain("text/event-stream");
    const all = parseFrames(await watched.text());
    expect(all.at(-1)?.data).toBe("[DONE]");
    expect(all.length).toBeGreaterThan(frames.length);
    const text = chunksOf(all)
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(text).toBe("The spring held; volume dried up on the test.");
  });

  it("is refused to non-loopback clients in local mode, and 404s for another user's or a missing session", async () => {
    const id = await newLocalSession("local only");
    const { token } = await createShare(id);
    const remote = await call(`/api/shares/${token}`, { headers: { "cf-connecting-ip": "203.0.113.9" } });
    expect(remote.status).toBe(403);
    expect((await postJson(`/api/sessions/s_${"0".repeat(26)}/share`, {})).status).toBe(404);
    const bad = await postJson(`/api/sessions/${id}/share`, { expiresInHours: 0 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.["field"]).toBe("expiresInHours");
    // A deleted session takes its links with it.
    expect((await call(`/api/sessions/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await share(`/api/shares/${token}`)).status).toBe(404);
  });
});

describe("portfolio routes", () => {
  const owner = "local";

  it("previews without writing, applies a confirmed change, and records trades", async () => {
    const before = await portfolios.read(owner);
    const preview = await postJson("/api/portfolio/preview", {
      action: "add",
      code: "SIM.0002",
      shares: 200,
      cost: 12.5,
    });
    expect(preview.status).toBe(200);
    const p = (await preview.json()) as { after: { positions: { code: string }[] }; summary: string };
    expect(p.after.positions.map((x) => x.code)).toContain("SIM.0002");
    expect(await portfolios.read(owner)).toEqual(before);

    expect(
      (
        await postJson("/api/portfolio/changes", {
          action: "add",
          code: "SIM.0002",
          shares: 200,
          cost: 12.5,
          buyDate: "20240105",
        })
      ).status,
    ).toBe(200);
    expect(
      (await postJson("/api/portfolio/changes", { action: "add", code: "SIM.0002", shares: 200, cost: 14.5 })).status,
    ).toBe(200);
    expect((await postJson("/api/portfolio/changes", { action: "update", code: "SIM.0002", stop: 11 })).status).toBe(
      200,
    );
    expect((await postJson("/api/portfolio/changes", { action: "set_cash", freeCash: 5000 })).status).toBe(200);
    const view = (await (await call("/api/portfolio")).json()) as {
      portfolio: { freeCash: number; positions: Record<string, unknown>[] };
      trades: { action: string }[];
    };
    expect(view.portfolio.freeCash).toBe(5000);
    expect(view.portfolio.positions.find((x) => x["code"] === "SIM.0002")).toMatchObject({
      shares: 400,
      cost: 13.5,
      buyDate: "2024-01-05",
      stop: 11,
    });
    expect(view.trades.map((t) => t.action).slice(0, 4)).toEqual(["set_cash", "update", "add", "add"]);
  });

  it("answers 400 naming the field for malformed trade input, and changes nothing", async () => {
    const before = await portfolios.read(owner);
    const name = (await new D1MarketCache(db).getSymbol("SIM.0001"))?.name ?? "";
    const cases: [unknown, string][] = [
      [{ action: "add", code: "SIM.0001", shares: -5, cost: 10 }, "shares"],
      [{ action: "add", code: "SIM.0001", shares: 5 }, "cost"],
      [{ action: "add", code: "SIM.0001", shares: "many", cost: 10 }, "shares"],
      [{ action: "add", code: "SIM.0001", shares: 5, cost: 10, buyDate: "2024-02-30" }, "buyDate"],
      [{ action: "sell_everything", code: "SIM.0001" }, "action"],
      [{ action: "add", code: "NOPE.9999", shares: 5, cost: 10 }, "code"],
      [{ action: "add", code: "SIM.0001", name: `${name}X`, shares: 5, cost: 10 }, "name"],
      [{ action: "add", code: "SIM.IDX1", shares: 5, cost: 10 }, "code"],
      [{ action: "set_cash" }, "freeCash"],
      [{ action: "remove", code: "SIM.0150" }, "code"],
      [{ action: "add", code: "SIM.0001", shares: 5, cost: 10, extra: 1 }, "(body)"],
    ];
    for (const [body, field] of cases) {
      const res = await postJson("/api/portfolio/changes", body);
      const error = await errorOf(res);
      expect([JSON.stringify(body), res.status, error.code]).toEqual([JSON.stringify(body), 400, "invalid_input"]);
      expect([JSON.stringify(body), error.details?.["field"]]).toEqual([JSON.stringify(body), field]);
    }
    expect(await portfolios.read(owner)).toEqual(before);
  });

  it("moves cash with a buy and a sale, and values holdings at the last close with P&L", async () => {
    await postJson("/api/portfolio/import", { csv: "code,shares,cost\n", mode: "replace" });
    expect((await postJson("/api/portfolio/changes", { action: "set_cash", freeCash: 10_000 })).status).toBe(200);
    const preview = (await (
      await postJson("/api/portfolio/preview", { action: "add", code: "SIM.0001", shares: 100, cost: 20 })
    ).json()) as { before: { freeCash: number }; after: { freeCash: number }; cashMove: unknown };
    expect([preview.before.freeCash, preview.after.freeCash, preview.cashMove]).toEqual([
      10_000,
      8000,
      { amount: -2000, price: 20 },
    ]);
    expect((await portfolios.read(owner)).freeCash).toBe(10_000);
    expect(
      (await postJson("/api/portfolio/changes", { action: "add", code: "SIM.0001", shares: 100, cost: 20 })).status,
    ).toBe(200);
    expect((await portfolios.read(owner)).freeCash).toBe(8000);
    const view = (await (await call("/api/portfolio")).json()) as {
      valuation: {
        positions: Record<string, unknown>[];
        cash: number;
        marketValue: number;
        totalValue: number;
        pnl: number;
      };
    };
    const price = view.valuation.positions[0]?.["price"] as number;
    expect(price).toBeGreaterThan(0);
    const last = { close: price, date: view.valuation.positions[0]?.["priceDate"] };
    expect(last.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const value = Math.round(100 * price * 100) / 100;
    expect(view.valuation.positions[0]).toMatchObject({
      code: "SIM.0001",
      price: last?.close,
      priceDate: last?.date,
      value,
    });
    expect(view.valuation).toMatchObject({ cash: 8000, marketValue: value });
    expect(view.valuation.totalValue).toBeCloseTo(value + 8000, 2);
    expect(view.valuation.pnl).toBeCloseTo(value - 2000, 2);
    // A sale without a price puts shares × the last close back.
    const sale = (await (await postJson("/api/portfolio/changes", { action: "remove", code: "SIM.0001" })).json()) as {
      after: { freeCash: number };
      cashMove: { amount: number; price: number };
    };
    expect(sale.cashMove).toEqual({ amount: value, price: last?.close });
    expect(sale.after.freeCash).toBeCloseTo(8000 + value, 2);
    // An uncovered buy with cash "trade" is refused naming the field; a price on a buy is a 400 too.
    for (const [body, field] of [
      [{ action: "add", code: "SIM.0001", shares: 1e6, cost: 20, cash: "trade" }, "cash"],
      [{ action: "add", code: "SIM.0001", shares: 1, cost: 20, price: 21 }, "price"],
    ] as const) {
      const res = await postJson("/api/portfolio/changes", body);
      expect([res.status, (await errorOf(res)).details?.["field"]]).toEqual([400, field]);
    }
  });

  it("says what is at a workspace path (write_file's approval), and refuses a bad path with 400", async () => {
    const none = (await (await call("/api/workspace/stat?path=notes/plan.md")).json()) as Record<string, unknown>;
    expect(none).toEqual({ path: "notes/plan.md", exists: false, size: null, updatedAt: null });
    await testEnv.SPILLS.put("workspace/local/notes/plan.md", "hello");
    const stat = (await (await call("/api/workspace/stat?path=notes/plan.md")).json()) as Record<string, unknown>;
    expect(stat).toMatchObject({ path: "notes/plan.md", exists: true, size: 5 });
    for (const [path, status] of [
      ["", 400],
      ["../etc/passwd", 400],
      ["a%2e%2e", 400],
    ] as const) {
      const res = await call(`/api/workspace/stat?path=${encodeURIComponent(path)}`);
      expect([path, res.status, (await errorOf(res)).details?.["field"]]).toEqual([path, status, "path"]);
    }
    expect((await call("/api/workspace/stat")).status).toBe(400);
  });

  it("exports CSV and imports it back (dry run first); a bad row answers with its line and field", async () => {
    const csv = await (await call("/api/portfolio/export")).text();
    expect(csv.split("\r\n")[0]).toBe("code,name,shares,cost,buy_date,stop");
    const bad = await postJson("/api/portfolio/import", { csv: "code,shares,cost\nSIM.0001,10,1\nSIM.0002,10,abc\n" });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.["field"]).toBe("rows[1].cost");

    const before = await portfolios.read(owner);
    const next = "代码,数量,成本,止损\nSIM.0001,300,9.8,9\n";
    const dry = await postJson("/api/portfolio/import", { csv: next, mode: "replace", dryRun: true });
    expect(dry.status).toBe(200);
    expect(((await dry.json()) as { after: { positionCount: number } }).after.positionCount).toBe(1);
    expect(await portfolios.read(owner)).toEqual(before);

    expect((await postJson("/api/portfolio/import", { csv: next, mode: "replace" })).status).toBe(200);
    const after = await portfolios.read(owner);
    expect(after.positions.map((p) => [p.code, p.shares, p.cost, p.stop])).toEqual([["SIM.0001", 300, 9.8, 9]]);
    const roundTrip = await postJson("/api/portfolio/import", {
      csv: await (await call("/api/portfolio/export")).text(),
    });
    expect(roundTrip.status).toBe(200);
    expect((await portfolios.read(owner)).positions.map((p) => [p.code, p.shares])).toEqual([["SIM.0001", 300]]);
  });
});

describe("portfolio tools in a turn", () => {
  async function turnUntilApproval(id: string, text: string) {
    const res = await postJson(`/api/sessions/${id}/messages`, { text });
    const frames = parseFrames(await res.text());
    const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as
      | { approvalId: string }
      | undefined;
    return { frames, request };
  }

  it("update_portfolio never writes without approval: denied → nothing; allowed → written", async () => {
    const owner = "local";
    await postJson("/api/portfolio/import", { csv: "code,shares,cost\n", mode: "replace" });
    const id = await newLocalSession("portfolio turn");
    const key = `k-pf-${id}`;
    const call1 = { name: "update_portfolio", arguments: { action: "add", code: "SIM.0002", shares: 50, cost: 20 } };
    await script(key, [{ toolCalls: [call1] }, { text: "not changed" }, { toolCalls: [call1] }, { text: "added" }]);
    const codesOf = async () => (await portfolios.read(owner)).positions.map((p) => p.code);
    const held = await codesOf();

    const first = await turnUntilApproval(id, `add SIM.0002 ${key}`);
    expect(first.request).toBeDefined();
    expect(await codesOf()).toEqual(held);
    const deny = await postJson(`/api/sessions/${id}/approvals/${first.request?.approvalId}`, { decision: "deny" });
    expect(deny.status).toBe(200);
    const rest = parseFrames(
      await (await call(`/api/sessions/${id}/stream?from=${(first.frames.at(-1)?.id ?? 0) + 1}`)).text(),
    );
    expect(rest.at(-1)?.data).toBe("[DONE]");
    expect(await codesOf()).toEqual(held);

    const second = await turnUntilApproval(id, `again ${key}`);
    // A malformed edit is refused (400 naming the field) and still writes nothing.
    const badEdit = await postJson(`/api/sessions/${id}/approvals/${second.request?.approvalId}`, {
      decision: "edit",
      input: { action: "add", code: "SIM.0002", shares: -1, cost: 20 },
    });
    expect(badEdit.status).toBe(400);
    expect((await errorOf(badEdit)).message).toContain("shares");
    expect(await codesOf()).toEqual(held);
    expect(
      (await postJson(`/api/sessions/${id}/approvals/${second.request?.approvalId}`, { decision: "allow" })).status,
    ).toBe(200);
    const done = chunksOf(
      parseFrames(await (await call(`/api/sessions/${id}/stream?from=${(second.frames.at(-1)?.id ?? 0) + 1}`)).text()),
    );
    expect(done.find((c) => c.type === "tool-output-available")).toMatchObject({
      output: { success: true, changed: { code: "SIM.0002", shares: 50, cost: 20 } },
    });
    expect(await codesOf()).toContain("SIM.0002");
  });

  it("portfolio diagnose reports each holding's position-aware health (a failing one does not sink the rest)", async () => {
    await postJson("/api/portfolio/import", {
      csv: "code,shares,cost,stop\nSIM.0001,100,10,\nSIM.0003,10,5,\n",
      mode: "replace",
    });
    const id = await newLocalSession("diagnose");
    const key = `k-diag-${id}`;
    await script(key, [{ toolCalls: [{ name: "portfolio", arguments: { mode: "diagnose" } }] }, { text: "checked" }]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `体检持仓 ${key}` });
    const chunks = chunksOf(parseFrames(await res.text()));
    const out = chunks.find((c) => c.type === "tool-output-available") as {
      output: {
        positionCount: number;
        successfulCount: number;
        failedCount: number;
        diagnostics: Record<string, unknown>[];
      };
    };
    expect(out.output).toMatchObject({ positionCount: 2, successfulCount: 1, failedCount: 1 });
    const ok = out.output.diagnostics.find((d) => d["code"] === "SIM.0001");
    expect(ok).toMatchObject({ ok: true, simulated: true, grade: expect.stringMatching(/healthy|warning|danger/) });
    expect(typeof ok?.["pnlPct"]).toBe("number");
    expect(out.output.diagnostics.find((d) => d["code"] === "SIM.0003")).toMatchObject({ ok: false });

    // A share of this session serves the charts of symbols its transcript names, and no others.
    const { token } = await createShare(id);
    const bars = await call(`/api/shares/${token}/bars/SIM.0001?days=30`);
    expect(bars.status).toBe(200);
    expect(((await bars.json()) as { bars: unknown[] }).bars).toHaveLength(30);
    expect((await call(`/api/shares/${token}/bars/SIM.0002?days=30`)).status).toBe(404);
  });
});

describe("cross-origin requests", () => {
  it("gets no CORS headers and cannot write from a foreign origin; an allow-listed origin can", async () => {
    const evil = { origin: "https://evil.example" };
    const pre = await call("/api/sessions", {
      method: "OPTIONS",
      headers: { ...evil, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const { sessions: before } = (await (await call("/api/sessions")).json()) as { sessions: unknown[] };
    const post = await call("/api/sessions", {
      method: "POST",
      headers: { ...evil, "content-type": "text/plain" },
      body: "{}",
    });
    expect(post.status).toBe(403);
    const { sessions: after } = (await (await call("/api/sessions")).json()) as { sessions: unknown[] };
    expect(after.length).toBe(before.length);
    const get = await call("/api/sessions", { headers: evil });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
    // Same origin is fine.
    expect((await call("/api/sessions", { method: "POST", headers: { origin: BASE }, body: "{}" })).status).toBe(201);

    const allowed = { ...testEnv, CORS_ORIGINS: "https://pages.example" };
    const ok = await req(
      "/api/sessions",
      { method: "POST", headers: { origin: "https://pages.example" }, json: {} },
      allowed,
    );
    expect(ok.status).toBe(201);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://pages.example");
  });

  it("keeps the 2 MiB body limit on the new routes", async () => {
    const res = await postJson("/api/portfolio/import", { csv: "x".repeat(3 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });
});
