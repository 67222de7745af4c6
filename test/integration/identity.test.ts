/**
 * Identity inside workerd: token mode (admin and self-service tokens, two users who cannot see each
 * other's anything — sessions, tasks, memory, portfolios, shares), Access JWTs against a local key
 * set, per-user rate limits and CORS. Share links: shares.test.ts; portfolios: portfolio.test.ts.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey as JoseKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { D1MemoryStore } from "../../worker/storage/memory-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { D1TaskRepo } from "../../worker/storage/task-repo";
import { testEnv } from "./test-env";
import { call, postJson, script } from "./turn-helpers";
import {
  ADMIN,
  adminToken,
  BASE,
  createSession,
  db,
  type Env,
  errorOf,
  portfolios,
  req,
  seedPortfolioMarket,
  TOKEN_ENV,
} from "./identity-helpers";
beforeAll(seedPortfolioMarket);
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
