/**
 * The audit trail in workerd: real turns through the session DO against the scripted model, each
 * sealed into the session's chain (tool calls, an approval with who and when, a notification turn,
 * a cancelled turn, a failed turn, a turn that hit its round limit), exported as JSONL, checked with
 * the signing key's public half; a share link exposes it only when asked; deleting leaves a tombstone.
 */
import { describe, expect, it } from "vitest";
import type { AuditEntry, AuditPublicKeyResponse } from "../../worker/contracts/audit";
import type { SessionAgent } from "../../worker/session/session-agent";
import { checkChain } from "../support/audit/check-chain";
import { testEnv } from "./test-env";
import { call, chunksOf, eventually, parseFrames, postJson, readSession, script, sendAndRead } from "./turn-helpers";

async function exportOf(id: string): Promise<{ text: string; entries: AuditEntry[] }> {
  const res = await call(`/api/sessions/${id}/audit`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/x-ndjson");
  const text = new TextDecoder().decode(await res.arrayBuffer());
  return {
    text,
    entries: text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEntry),
  };
}

async function publicKey(): Promise<string> {
  const res = await call("/api/audit/public-key");
  expect(res.status).toBe(200);
  const body = (await res.json()) as AuditPublicKeyResponse;
  expect(body).toMatchObject({ algorithm: "Ed25519", signed: true });
  return body.publicKey ?? "";
}

async function approveNext(id: string, res: Response): Promise<void> {
  const frames = parseFrames(await res.text());
  const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as { approvalId: string };
  expect((await postJson(`/api/sessions/${id}/approvals/${request.approvalId}`, { decision: "allow" })).status).toBe(
    200,
  );
  const next = (frames.at(-1)?.id ?? 0) + 1;
  await (await call(`/api/sessions/${id}/stream?from=${next}`)).text();
}

describe("the audit trail", () => {
  it("chains and signs one entry per turn: tool calls, an approval, a notification turn", async () => {
    const { getAgentByName } = await import("agents");
    const create = await postJson("/api/sessions", {});
    const id = ((await create.json()) as { id: string }).id;
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      { text: "现在是上海时间。" },
      { toolCalls: [{ name: "rename_session", arguments: { title: "Audited" } }] },
      { text: "renamed" },
      { text: "Your screening finished." },
    ]);
    await sendAndRead(id, `几点了？${key}`);
    await approveNext(id, await postJson(`/api/sessions/${id}/messages`, { text: `rename it ${key}` }));
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await stub.notify({ id: "task_a", text: `Screening task_a succeeded ${key}` });
    await eventually(async () => ((await readSession(id)).messages.length === 6 ? true : undefined));
    // The notification turn's entry is sealed after its reply is stored: wait for the seal, not the reply.
    const { text, entries } = await eventually(async () => {
      const exported = await exportOf(id);
      return exported.entries.length >= 3 ? exported : undefined;
    });
    expect(entries.map((e) => e.kind)).toEqual(["turn", "turn", "notification"]);
    expect(await checkChain(text, await publicKey())).toBeNull();

    const [first, second] = entries;
    expect(first?.tools).toEqual([
      expect.objectContaining({ name: "get_time", args: { market: "cn" }, status: "ok", approval: null }),
    ]);
    expect(first?.tools[0]?.resultHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first?.systemHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first?.messagesHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first?.model.id).toBe("scripted");
    expect(first?.usage["inputTokens"]).toBeGreaterThan(0);
    expect(second?.tools[0]).toMatchObject({
      name: "rename_session",
      approval: { decision: "allow", by: "local" },
    });
    expect(second?.tools[0]?.approval?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // No secret in any entry.
    expect(text).not.toContain("test-key");

    // The session shows the head of its chain.
    const detail = (await readSession(id)) as unknown as { audit: { head: string; count: number; signed: boolean } };
    expect(detail.audit).toEqual({ head: entries.at(-1)?.hash, count: 3, signed: true, keyId: entries[0]?.keyId });
  });

  it("seals cancelled, failed and round-limited turns too", async () => {
    const create = await postJson("/api/sessions", { profile: "cn-equity:quick" });
    const id = ((await create.json()) as { id: string }).id;
    const key = `k-${id}`;
    await script(key, [
      { text: "a long answer ".repeat(40), chunkDelayMs: 30, chunkSize: 4 },
      { status: 401, body: { error: { message: "invalid api key" } } },
      ...Array.from({ length: 5 }, () => ({ toolCalls: [{ name: "get_time", arguments: { market: "us" } }] })),
    ]);
    const running = await postJson(`/api/sessions/${id}/messages`, { text: `long ${key}` });
    const reader = (running.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect((await postJson(`/api/sessions/${id}/cancel`, {})).status).toBe(200);
    while (!(await reader.read()).done);
    await sendAndRead(id, `fail ${key}`);
    await sendAndRead(id, `loop ${key}`);
    const { text, entries } = await exportOf(id);
    expect(entries.map((e) => e.status)).toEqual(["cancelled", "error", "rounds_exceeded"]);
    expect(entries[2]?.tools).toHaveLength(5);
    expect(await checkChain(text, await publicKey())).toBeNull();
  });

  it("is owner-only, shared only when the link says so, and leaves a tombstone when deleted", async () => {
    const create = await postJson("/api/sessions", {});
    const id = ((await create.json()) as { id: string }).id;
    const key = `k-${id}`;
    await script(key, [{ text: "hello" }]);
    await sendAndRead(id, `hi ${key}`);
    const { entries } = await exportOf(id);
    expect(entries).toHaveLength(1);

    const plain = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    expect((await call(`/api/shares/${plain.token}/audit`)).status).toBe(404);
    const withAudit = (await (await postJson(`/api/sessions/${id}/share`, { audit: true })).json()) as {
      token: string;
      audit: boolean;
    };
    expect(withAudit.audit).toBe(true);
    const shared = await call(`/api/shares/${withAudit.token}/audit`);
    expect(shared.status).toBe(200);
    expect(new TextDecoder().decode(await shared.arrayBuffer()).trim()).toBe(JSON.stringify(entries[0]));
    const sharedDetail = (await (await call(`/api/shares/${withAudit.token}`)).json()) as {
      shared: { audit: boolean };
      audit: { head: string };
    };
    expect(sharedDetail.shared.audit).toBe(true);
    expect(sharedDetail.audit.head).toBe(entries[0]?.hash);

    expect((await call(`/api/sessions/s_00000000000000000000000000/audit`)).status).toBe(404);
    expect((await call(`/api/sessions/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/sessions/${id}/audit`)).status).toBe(404);
    const tombstones = (await (await call("/api/audit/tombstones")).json()) as {
      tombstones: { sessionId: string; headHash: string; entries: number }[];
    };
    expect(tombstones.tombstones.find((t) => t.sessionId === id)).toMatchObject({
      headHash: entries[0]?.hash,
      entries: 1,
    });
  });
});
