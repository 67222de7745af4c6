/**
 * Share links inside workerd: read-only, live, refused on every write route, revoked/expired → 404
 * like a wrong token, loopback-only in local mode.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { testEnv } from "./test-env";
import { call, chunksOf, parseFrames, postJson, readUntil, script } from "./turn-helpers";
import { BASE, createShare, errorOf, newLocalSession, seedPortfolioMarket, share } from "./identity-helpers";

// The universe the original file seeded for all its tests: a shared session's bars and analyses read it.
beforeAll(seedPortfolioMarket);

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
