/**
 * What a session keeps around its turns inside workerd: system notifications in turns of their own,
 * the long-polled turn state (GET …/turn), context governance (compaction summary, traces, usage,
 * spills, a 10,000-message session), what survives a reload, and the 1 MB row discipline.
 */
import { describe, expect, it } from "vitest";
import type { SessionAgent } from "../../worker/session/session-agent";
import { testEnv } from "./test-env";
import {
  call,
  chunksOf,
  eventually,
  modelRequests,
  newSession,
  parseFrames,
  postJson,
  readSession,
  script,
  sendAndRead,
} from "./turn-helpers";

describe("system notifications", () => {
  it("reports a finished task in a turn of its own, once per id, after any running turn", async () => {
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { text: "working on it ".repeat(10), chunkDelayMs: 20, chunkSize: 5 },
      { text: "Your screening finished: 3 candidates." },
    ]);
    const running = await postJson(`/api/sessions/${id}/messages`, { text: `screen ${key}` });
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    expect(await stub.notify({ id: "task_1", text: `Screening task_1 succeeded: 3 candidates ${key}` })).toEqual({
      queued: true,
    });
    expect(await stub.notify({ id: "task_1", text: "duplicate" })).toEqual({ queued: false });
    await running.text();
    const session = await eventually(async () => {
      const s = await readSession(id);
      return s.messages.length === 4 && s.messages[3]?.metadata?.status === "done" ? s : undefined;
    });
    expect(session.messages[2]).toMatchObject({ role: "user", metadata: { kind: "notification", taskId: "task_1" } });
    const answer = session.messages[3]?.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    expect(answer).toBe("Your screening finished: 3 candidates.");
    const sent = (await modelRequests(key)).at(-1)?.body.messages.at(-1);
    expect(String(sent?.content)).toContain("[SYSTEM NOTIFICATION - NOT USER INPUT]");
    const replay = chunksOf(parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text()));
    expect(replay.find((c) => c.type === "data-notification")).toMatchObject({ data: { taskId: "task_1" } });
  });
});

describe("watching the session's turn state (GET …/turn)", () => {
  it("answers at once for a new key, long-polls until a turn it did not start begins, and serves share links", async () => {
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "Your backtest finished." }]);
    const first = (await (await call(`/api/sessions/${id}/turn?wait=0`)).json()) as { key: string; turn: unknown };
    expect(first).toEqual({ key: "", turn: null });
    // A long-poll holding the current key waits; a notification turn (no page started it) wakes it.
    const polling = call(`/api/sessions/${id}/turn?after=&wait=20`);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await stub.notify({ id: "task_w", text: `Backtest task_w succeeded ${key}` });
    const woke = (await (await polling).json()) as { key: string; turn: { id: string; status: string } };
    expect(woke.turn.id).toMatch(/^t_/);
    expect(woke.key).toBe(`${woke.turn.id}:${woke.turn.status}`);
    // The page then follows that turn over the ordinary stream and sees it end.
    const replay = chunksOf(parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text()));
    expect(replay.find((c) => c.type === "data-notification")).toMatchObject({ data: { taskId: "task_w" } });
    expect(replay.at(-1)?.type).toBe("finish");
    const done = (await (
      await call(`/api/sessions/${id}/turn?after=${encodeURIComponent(woke.key)}&wait=5`)
    ).json()) as {
      key: string;
    };
    expect(done.key).toBe(`${woke.turn.id}:done`);
    // Unchanged key and no wait: the same key back at once.
    const same = (await (
      await call(`/api/sessions/${id}/turn?after=${encodeURIComponent(done.key)}&wait=0`)
    ).json()) as {
      key: string;
    };
    expect(same.key).toBe(done.key);
    // The share link reads the same state.
    const share = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    const shared = (await (await call(`/api/shares/${share.token}/turn?wait=0`)).json()) as { key: string };
    expect(shared.key).toBe(done.key);
  });

  it("rejects a bad wait or key with a 400 envelope, and another owner's or an unknown share with 404", async () => {
    const id = await newSession();
    for (const q of ["wait=26", "wait=-1", "wait=abc", `after=${"x".repeat(81)}`]) {
      const res = await call(`/api/sessions/${id}/turn?${q}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
    }
    expect((await call(`/api/sessions/s_${"a".repeat(26)}/turn?wait=0`)).status).toBe(404);
    expect((await call(`/api/shares/shr_nope/turn?wait=0`)).status).toBe(404);
  });
});

describe("context governance in the session", () => {
  it("sends the stored compaction summary instead of the covered messages", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "first answer" }, { text: "second answer" }]);
    await sendAndRead(id, `first question about 600519 ${key}`);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await runInDurableObject(stub, (instance: SessionAgent) => {
      instance["store"].setCompaction("用户在研究 600519 的吸筹阶段。", 2);
    });
    await sendAndRead(id, `second question ${key}`);
    const sent = (await modelRequests(key))[1]?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(String(sent[1]?.content)).toContain("[对话摘要]");
    expect(JSON.stringify(sent)).not.toContain("first question about 600519");
    const session = (await (await call(`/api/sessions/${id}`)).json()) as {
      compaction: { summary: string; compactedThrough: number; count: number };
      messages: unknown[];
    };
    expect(session.compaction).toEqual({ summary: "用户在研究 600519 的吸筹阶段。", compactedThrough: 2, count: 1 });
    expect(session.messages).toHaveLength(4); // non-destructive: the UI keeps the whole history
  });

  it("writes a redacted JSONL trace per turn and records usage with cost", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      {
        reasoning: "check the clock",
        toolCalls: [{ name: "get_time", arguments: { market: "cn" } }],
        usage: { prompt: 1000, completion: 100 },
      },
      { text: "done", usage: { prompt: 1200, completion: 50 } },
    ]);
    const { frames } = await sendAndRead(id, `clock please, my api_key is sk-123 ${key}`);
    const usage = chunksOf(frames).filter((c) => c.type === "data-usage") as { data: { costUsd: number } }[];
    expect(usage[0]?.data.costUsd).toBeCloseTo((1000 * 2 + 100 * 8) / 1_000_000, 9);
    const trace = await call(`/api/sessions/${id}/trace`);
    expect(trace.status).toBe(200);
    const lines = (await trace.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; tool?: string; ms?: number; status?: string });
    expect(lines.map((l) => l.type)).toEqual(["init", "thinking", "tool_result", "final"]);
    expect(lines[2]).toMatchObject({ tool: "get_time", status: "ok", ms: expect.any(Number) });
    expect((await call(`/api/sessions/${id}/trace?turn=t_0000000000000000000000000a`)).status).toBe(404);
    expect((await call(`/api/sessions/${id}/trace?turn=nope`)).status).toBe(400);
    const summary = (await (await call("/api/usage?days=7")).json()) as {
      totals: { turns: number; inputTokens: number; costUsd: number };
    };
    expect(summary.totals.inputTokens).toBeGreaterThanOrEqual(2200);
    expect(summary.totals.costUsd).toBeGreaterThan(0);
    expect((await call("/api/usage?days=0")).status).toBe(400);
    const session = (await (await call(`/api/sessions/${id}`)).json()) as {
      usage: { costUsd: number; inputTokens: number };
    };
    expect(session.usage).toMatchObject({ inputTokens: 2200, costUsd: (2200 * 2 + 150 * 8) / 1_000_000 });
  });

  it("serves a spilled result to the owner and keeps a 10,000-message session loadable", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const big = JSON.stringify({ rows: Array.from({ length: 50_000 }, (_, i) => `row ${i} ${"x".repeat(90)}`) });
    await testEnv.SPILLS.put(`spills/${id}/t_0000000000000000000000000a/call_1.json`, big);
    const res = await call(`/api/sessions/${id}/spills/t_0000000000000000000000000a/call_1`);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBe(big.length);
    const other = await newSession();
    expect((await call(`/api/sessions/${other}/spills/t_0000000000000000000000000a/call_1`)).status).toBe(404);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await runInDurableObject(stub, (instance: SessionAgent) => {
      const store = instance["store"];
      for (let i = 0; i < 10_000; i++)
        store.appendMessage(
          { id: `m_${i}`, role: i % 2 ? "assistant" : "user", parts: [{ type: "text", text: `message ${i}` }] },
          0,
        );
    });
    // The latest page comes first; the older pages, walked by their cursors, hold every message once.
    type Page = { messages: { id: string }[]; page: { limit: number; older: string | null } };
    const first = (await (await call(`/api/sessions/${id}`)).json()) as Page;
    expect(first.messages).toHaveLength(200);
    expect(first.messages.at(-1)?.id).toBe("m_9999");
    const ids = first.messages.map((m) => m.id);
    let older = first.page.older;
    while (older) {
      const page = (await (await call(`/api/sessions/${id}?limit=500&before=${older}`)).json()) as Page;
      ids.unshift(...page.messages.map((m) => m.id));
      older = page.page.older;
    }
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids[0]).toBe("m_0");
  });
});

describe("what survives a reload", () => {
  it("keeps a failed turn's diagnosis and each tool's run time", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      { status: 401, body: { error: { message: "bad key" } } },
    ]);
    const { frames } = await sendAndRead(id, `time ${key}`);
    expect(chunksOf(frames).find((c) => c.type === "tool-output-available")).toMatchObject({
      toolMetadata: { ms: expect.any(Number) },
    });
    const session = await readSession(id);
    expect(session.messages[1]?.metadata).toMatchObject({
      status: "error",
      error: expect.stringContaining("LLM_API_KEY"),
    });
  });
});

describe("size discipline", () => {
  it("stores 3 MB of text, reasoning and tool arguments without a row over 1 MB, and reads them back whole", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const { largestRowBytes } = await import("./turn-helpers");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "small answer" }]);
    await sendAndRead(id, `seed ${key}`);
    const reasoning = "想".repeat(1_000_000); // 3 MB of UTF-8
    const text = "a".repeat(3_000_000);
    const args = { content: "x".repeat(3_000_000) };
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    const restored = await runInDurableObject(stub, (instance: SessionAgent) => {
      const turns = instance["turns"];
      const store = instance["store"];
      const turnId = turns.lastTurn()?.id ?? "";
      const idx = turns.nextEventIndex();
      turns.appendEvents([
        { idx, turnId, chunk: JSON.stringify({ type: "text-delta", id: "t", delta: text }) },
        {
          idx: idx + 1,
          turnId,
          chunk: JSON.stringify({ type: "tool-input-available", toolCallId: "c", toolName: "write_file", input: args }),
        },
      ]);
      turns.appendModelMessages(turnId, [
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: reasoning },
            { type: "text", text },
            { type: "tool-call", toolCallId: "c", toolName: "write_file", input: args },
          ],
        },
      ]);
      store.appendMessage(
        {
          id: "m_big",
          role: "assistant",
          parts: [
            { type: "reasoning", text: reasoning },
            { type: "text", text },
          ],
        },
        Date.now(),
      );
      const events = turns.eventsOf(turnId, idx).map((e) => JSON.parse(e.chunk) as Record<string, unknown>);
      const model = turns.modelMessages().at(-1)?.message;
      return { largest: largestRowBytes(instance["ctx"].storage.sql), events, model: JSON.stringify(model) };
    });
    expect(restored.largest.bytes, restored.largest.table).toBeLessThanOrEqual(1024 * 1024);
    expect(restored.events[0]?.delta).toBe(text);
    expect(restored.events[1]?.input).toEqual(args);
    expect(restored.model).toContain(reasoning);
    expect(restored.model).toContain(args.content);
    const session = await readSession(id);
    const big = session.messages.find((m) => m.id === "m_big");
    expect(big?.parts).toEqual([
      { type: "reasoning", text: reasoning },
      { type: "text", text },
    ]);
  }, 60_000);
});
