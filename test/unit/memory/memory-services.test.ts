import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../worker/lib/log";
import { createMemoryFlush } from "../../../worker/runtime/memory/flush-memories";
import { modelMemoryPass } from "../../../worker/runtime/memory/model-memory-pass";
import { createMemoryRecall } from "../../../worker/runtime/memory/recall-memories";
import { rememberTurn } from "../../../worker/runtime/memory/remember-turn";
import { createMemoryStoreFake } from "./memory-fakes";

const log = createLogger(() => {});
const now = () => 1_800_000_000_000;

function replying(...texts: string[]): MockLanguageModelV4 {
  let i = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: texts[i++] ?? "NONE" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 10, text: 10, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

describe("memory services", () => {
  it("remembers a turn by the rules and recalls it, pinned and within budget, stamping hits", async () => {
    const store = createMemoryStoreFake();
    await rememberTurn(
      { store, now, log },
      {
        ownerId: "u1",
        sessionId: "s_1",
        user: { id: "m_1", text: "我喜欢放量突破后回踩确认。我决定以后只做主升浪。" },
        assistant: { id: "m_2", text: "建议关注缩量回踩。" },
      },
    );
    expect(store.rows.map((r) => r.type)).toEqual(["preference", "decision", "lesson"]);
    const deferred: Promise<unknown>[] = [];
    const recall = createMemoryRecall({ store, now, log, defer: (p) => deferred.push(p) });
    const recalled = await recall.recall({ userId: "u1", sessionId: "s_2", text: "主升浪怎么做" });
    expect(recalled?.block).toContain("[偏好 preference] 我喜欢放量突破后回踩确认。 | source: s_1");
    expect(recalled?.block).toContain("[决策 decision] 我决定以后只做主升浪。");
    expect(recalled?.block).not.toContain("缩量回踩");
    await Promise.all(deferred);
    expect(store.rows.filter((r) => r.lastHitAt !== null)).toHaveLength(2);
    expect(await recall.recall({ userId: "someone-else", sessionId: "s_3", text: "主升浪" })).toBeNull();
  });

  it("propagates a failing store (the runtime logs it and goes on)", async () => {
    const store = createMemoryStoreFake();
    store.recallRows = async () => {
      throw new Error("D1 down");
    };
    await expect(
      createMemoryRecall({ store, now, log }).recall({ userId: "u", sessionId: "s", text: "回踩" }),
    ).rejects.toThrow("D1 down");
  });

  it("flushes stable preferences from the head before compaction", async () => {
    const store = createMemoryStoreFake();
    await createMemoryFlush({ store, now, log }).flushBeforeCompaction({
      sessionId: "s_1",
      userId: "u1",
      head: [
        { role: "user", text: "我偏好周线级别的趋势。" },
        { role: "assistant", text: "我喜欢这样。" },
        { role: "tool", text: '{"x":1}' },
      ],
    });
    expect(store.rows).toEqual([
      expect.objectContaining({ type: "preference", origin: "flush", content: "我偏好周线级别的趋势。" }),
    ]);
  });

  it("adds the model's L1 atoms, then refreshes scenario and persona once 3 atoms exist", async () => {
    const store = createMemoryStoreFake();
    const model = replying(
      "[偏好] 只做右侧交易\n[决策] 跌破冰线离场，因为结构失效\n[偏好] 单只仓位不超过两成\n[偏好] 今天买入了600519",
      "[画像] 稳健的右侧趋势交易者\n[场景] 突破回踩时分批建立底仓",
    );
    const added = await modelMemoryPass(
      { store, model, now, log },
      {
        ownerId: "u1",
        sessionId: "s_1",
        messages: [
          { id: "m_1", role: "user", text: "我一般只做右侧" },
          { id: "m_2", role: "assistant", text: "好的" },
        ],
      },
    );
    expect(added).toBe(5);
    expect(store.rows.map((r) => [r.type, r.origin])).toEqual([
      ["preference", "model"],
      ["decision", "model"],
      ["preference", "model"],
      ["persona", "model"],
      ["scenario", "model"],
    ]);
    expect(store.rows[0]?.source).toEqual({ sessionId: "s_1", messageIds: ["m_1"] });
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});
