/**
 * Long-term memory in workerd: extraction after a turn (Chinese and English), recall in a later
 * session through the runtime with the scripted model, trace to the source, owner isolation,
 * pruning by the rules (also from the Cron Trigger), FTS syntax in user text, and a failing recall.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { MemoryList, MemoryTrace, type Memory } from "../../worker/contracts/memory";
import { MEMORY_PRUNING_CRON } from "../../worker/background/prune-memories";
import { DAY_MS } from "../../worker/memory/caps";
import { buildRecallQuery } from "../../worker/memory/fts-query";
import { memoryStoreOf } from "../../worker/storage/memory-repo";
import { countMemories } from "../../worker/storage/memory-repo";
import { call, chunksOf, eventually, modelRequests, newSession, script, sendAndRead } from "./turn-helpers";
import { testEnv } from "./test-env";

async function listMemories(query = ""): Promise<Memory[]> {
  const res = await call(`/api/memory${query}`);
  expect(res.status).toBe(200);
  return MemoryList.parse(await res.json()).memories;
}

async function memoryWith(fragment: string): Promise<Memory> {
  return eventually(async () => (await listMemories()).find((m) => m.content.includes(fragment)));
}

function userContents(requests: Awaited<ReturnType<typeof modelRequests>>): string[] {
  return requests.flatMap((r) =>
    r.body.messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : "")),
  );
}

describe("long-term memory", () => {
  it("extracts Chinese and English memories and recalls them in a later session of the same user", async () => {
    const first = await newSession();
    await script("mem-first", [
      { text: "建议你注意放量突破后的回踩确认，避免追高。Keep in mind that volume confirms the breakout." },
    ]);
    const { res } = await sendAndRead(
      first,
      "mem-first\n我喜欢放量突破后回踩确认再买入，不喜欢追高。I prefer weekly charts over daily charts for reading the trend.",
    );
    expect(res.status).toBe(200);

    const zh = await memoryWith("放量突破后回踩确认");
    const en = await memoryWith("weekly charts");
    const lesson = await memoryWith("建议你注意");
    expect(zh.type).toBe("preference");
    expect(en.type).toBe("preference");
    expect(lesson.type).toBe("lesson");
    expect(zh.source.sessionId).toBe(first);
    expect(zh.keywords).toContain("回踩");

    // A later session: the question names a 2-character word (回踩) and an English one.
    const later = await newSession();
    await script("mem-later", [{ text: "好的" }]);
    await sendAndRead(later, "mem-later\n回踩的时候该看什么？ what about weekly trend charts");
    const [request] = await modelRequests("mem-later");
    const question = request?.body.messages.filter((m) => m.role === "user").at(-1)?.content;
    expect(typeof question).toBe("string");
    const text = String(question);
    // The turn's context (date) first, then the memories, then the question.
    expect(text).toMatch(
      /^<turn-context>\nToday \(UTC\): \d{4}-\d{2}-\d{2}\.\n<\/turn-context>\n<relevant-memories>\n/,
    );
    expect(text).toContain("放量突破后回踩确认");
    expect(text).toContain("weekly charts");
    expect(text).toContain(`source: ${first}`);
    expect(text).toContain("<current-user-message>\nmem-later\n回踩的时候该看什么？");
    // The stored transcript keeps the question as typed.
    const session = (await (await call(`/api/sessions/${later}`)).json()) as {
      messages: { parts: { text?: string }[] }[];
    };
    expect(session.messages[0]?.parts[0]?.text).not.toContain("relevant-memories");
    // Hits are stamped.
    await eventually(async () => ((await listMemories()).find((m) => m.id === zh.id)?.lastHitAt ? true : undefined));
  });

  it("traces a memory to the message it came from", async () => {
    const zh = await memoryWith("放量突破后回踩确认");
    const res = await call(`/api/memory/${zh.id}/trace`);
    expect(res.status).toBe(200);
    const trace = MemoryTrace.parse(await res.json());
    expect(trace.session?.id).toBe(zh.source.sessionId);
    expect(trace.messages).toHaveLength(1);
    expect(trace.messages[0]?.role).toBe("user");
    expect(JSON.stringify(trace.messages[0]?.parts)).toContain("我喜欢放量突破后回踩确认再买入");
    expect(trace.missing).toEqual([]);
  });

  it("never stores trades of a stock, positions, the day's market state or tool details", async () => {
    const id = await newSession();
    await script("mem-never", [{ text: "收到" }]);
    await sendAndRead(
      id,
      "mem-never\n我决定今天买入600519共100股。我现在持有半仓宁德时代。今天大盘大跌，我希望明天反弹。我希望你调用 analyze_stock 工具。我偏好低吸而不是追涨。",
    );
    await memoryWith("我偏好低吸而不是追涨");
    const all = (await listMemories()).map((m) => m.content).join("\n");
    expect(all).not.toContain("600519");
    expect(all).not.toContain("半仓");
    expect(all).not.toContain("大盘");
    expect(all).not.toContain("analyze_stock");
  });

  it("searches, edits and deletes through the API; FTS syntax in the search is plain text", async () => {
    expect((await listMemories("?q=" + encodeURIComponent("回踩"))).some((m) => m.content.includes("回踩"))).toBe(true);
    expect((await listMemories("?type=lesson")).every((m) => m.type === "lesson")).toBe(true);
    for (const q of ['"', '"unbalanced', "*", "NEAR(a b)", "((回踩", "a OR", "content:x", "^-+", "AND NOT"])
      expect((await call(`/api/memory?q=${encodeURIComponent(q)}`)).status).toBe(200);
    expect((await call("/api/memory?type=nope")).status).toBe(400);

    const en = await memoryWith("weekly charts");
    const patched = await call(`/api/memory/${en.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "I prefer weekly charts, and monthly ones for the big picture." }),
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Memory).keywords).toContain("monthly");
    expect((await listMemories("?q=monthly")).map((m) => m.id)).toContain(en.id);
    const bad = await call(`/api/memory/${en.id}`, { method: "PATCH", body: JSON.stringify({ content: "" }) });
    expect(bad.status).toBe(400);
    expect((await call(`/api/memory/${en.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/api/memory/${en.id}/trace`)).status).toBe(404);
    expect((await listMemories("?q=monthly")).map((m) => m.id)).not.toContain(en.id);
  });

  it("keeps FTS syntax in the user's text harmless for recall", async () => {
    const texts = ['mem-syn1 "回踩 AND (NEAR( *', 'mem-syn2 ) OR NOT content:回踩 {x} ^ - "unbalanced', "mem-syn3 ***"];
    for (const [i, text] of texts.entries()) {
      const key = `mem-syn${i + 1}`;
      // One session per text: the scripted model picks the first registered key found in a request.
      const id = await newSession();
      await script(key, [{ text: "ok" }]);
      const { frames } = await sendAndRead(id, text);
      expect(chunksOf(frames).at(-1)?.type).toBe("finish");
      const [request] = await modelRequests(key);
      expect(userContents(request ? [request] : []).join("\n")).toContain("<relevant-memories>");
      const trace = await (await call(`/api/sessions/${id}/trace`)).text();
      expect(trace).not.toContain("memory recall failed");
    }
    const match = buildRecallQuery('"回踩 AND (NEAR( *').match ?? "";
    expect(match).toMatch(/^"[^"]*"(?: OR "[^"]*")*$/);
  });

  it("never shows one user's memories to another", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const [otherId] = await store.add(
      "someone-else",
      [
        {
          type: "preference",
          content: "我喜欢回踩确认的秘密策略 secret-plan-xyz",
          keywords: ["回踩", "确认", "secret-plan-xyz"],
          codes: [],
          origin: "rule",
          source: { sessionId: "s_other", messageIds: ["m_other"] },
        },
      ],
      Date.now(),
    );
    expect(otherId).toBeDefined();
    expect((await listMemories()).some((m) => m.content.includes("secret-plan-xyz"))).toBe(false);
    expect((await listMemories("?q=secret-plan-xyz")).length).toBe(0);
    for (const [method, path] of [
      ["GET", `/api/memory/${otherId}/trace`],
      ["PATCH", `/api/memory/${otherId}`],
      ["DELETE", `/api/memory/${otherId}`],
    ] as const)
      expect(
        (
          await call(path, {
            method,
            ...(method === "PATCH" ? { body: JSON.stringify({ relevance: 2 }) } : {}),
          })
        ).status,
      ).toBe(404);
    const id = await newSession();
    await script("mem-iso", [{ text: "ok" }]);
    await sendAndRead(id, "mem-iso 回踩确认 secret-plan-xyz");
    expect(userContents(await modelRequests("mem-iso")).join("\n")).not.toContain("秘密策略");
    expect(await countMemories(testEnv.DB, "someone-else")).toBe(1);
  });

  it("prunes by the rules after extraction and from the daily cron, idempotently", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const owner = "pruned-owner";
    const now = Date.now();
    const source = { sessionId: "s_p", messageIds: [] };
    const old = now - 100 * DAY_MS;
    await store.add(
      owner,
      [{ type: "fact", content: "旧事实 old fact", keywords: [], codes: [], origin: "rule", source }],
      old,
    );
    await store.add(
      owner,
      [{ type: "preference", content: "旧偏好 old preference", keywords: [], codes: [], origin: "rule", source }],
      old,
    );
    const oldHit = await store.add(
      owner,
      [{ type: "lesson", content: "旧但常用 old but recalled", keywords: [], codes: [], origin: "rule", source }],
      old,
    );
    await store.touch(owner, oldHit, now - DAY_MS);
    const decisions = Array.from({ length: 35 }, (_, i) => ({
      type: "decision" as const,
      content: `决策 ${i}`,
      keywords: [],
      codes: [],
      origin: "rule" as const,
      source,
    }));
    const ids: string[] = [];
    for (const [i, d] of decisions.entries()) ids.push(...(await store.add(owner, [d], now - (35 - i) * 60_000)));
    // The two oldest decisions were recalled: they outlive newer never-hit ones.
    await store.touch(owner, ids.slice(0, 2), now);
    expect(await countMemories(testEnv.DB, owner)).toBe(38);

    const controller = createScheduledController({ scheduledTime: now, cron: MEMORY_PRUNING_CRON });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, testEnv, ctx);
    await waitOnExecutionContext(ctx);

    const left = await store.list(owner, { limit: 200 });
    const contents = left.map((m) => m.content);
    expect(contents).not.toContain("旧事实 old fact");
    expect(contents).toContain("旧偏好 old preference");
    expect(contents).toContain("旧但常用 old but recalled");
    const kept = left.filter((m) => m.type === "decision").map((m) => m.id);
    expect(kept).toHaveLength(30);
    expect(kept).toEqual(expect.arrayContaining(ids.slice(0, 2)));
    expect(kept).not.toContain(ids[2]);
    expect(await store.prune({ ownerId: owner, now })).toBe(0);
    expect(await store.prune({ now })).toBe(0);
  });

  it("logs a failing recall and goes on with the turn without memories (last: it breaks the index)", async () => {
    await testEnv.DB.exec("DROP TABLE memory_terms");
    const id = await newSession();
    await script("mem-broken", [{ text: "still answering" }]);
    const { frames } = await sendAndRead(id, "mem-broken 回踩确认怎么看");
    const chunks = chunksOf(frames);
    expect(chunks.some((c) => c.type === "text-delta")).toBe(true);
    expect(chunks.at(-1)?.type).toBe("finish");
    const [request] = await modelRequests("mem-broken");
    expect(userContents(request ? [request] : []).join("\n")).not.toContain("<relevant-memories>");
    const trace = await (await call(`/api/sessions/${id}/trace`)).text();
    expect(trace).toContain("memory recall failed, the turn goes on without memories");
  });
});
