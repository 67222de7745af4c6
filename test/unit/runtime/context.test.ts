/**
 * Context governance in plain Node: model windows and thresholds, the token estimate against what
 * the scripted model counts on the wire, tail selection, compaction through the loop, stale-result
 * shrinking and oversized messages.
 */
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { selectTailStart, viewOf } from "../../../worker/runtime/context/compaction";
import {
  compactionReserve,
  compactionThreshold,
  inferContextWindow,
} from "../../../worker/runtime/context/model-metadata";
import { shrinkStaleResults, summarizeOutput } from "../../../worker/runtime/context/shrink";
import { messageTokens, requestTokens } from "../../../worker/runtime/context/tokens";
import { outputKeysOf } from "../../../worker/runtime/output-keys";
import { toolSchemas } from "../../../worker/runtime/stream-round";
import { TOOLS } from "../../../worker/tools/registry";
import { runHarnessTurn } from "../../support/runtime-harness";
import { estimatePromptTokens } from "../../support/scripted-model/openai-wire";
import { useScriptedModel } from "../../support/scripted-model/fixture";

const wasCompacted = (summary: { text: string } | undefined): boolean =>
  summary !== undefined && summary.text.length > 0;

const scripted = useScriptedModel("deepseek-chat");
const models = () => scripted.models();

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const assistantText = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const call = (id: string): ModelMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: "get_time", input: { market: "cn" } }],
});
const result = (id: string, value: unknown = { ok: true }): ModelMessage => ({
  role: "tool",
  content: [
    { type: "tool-result", toolCallId: id, toolName: "get_time", output: { type: "json", value: value as never } },
  ],
});

describe("model metadata", () => {
  it("infers windows by name, honours the override and defaults unknown models to 64K", () => {
    expect(inferContextWindow("deepseek-chat")).toBe(64_000);
    expect(inferContextWindow("gpt-4o-mini")).toBe(128_000);
    expect(inferContextWindow("gemini-2.0-flash")).toBe(1_000_000);
    expect(inferContextWindow("claude-sonnet-4")).toBe(200_000);
    expect(inferContextWindow("qwen-plus")).toBe(128_000);
    expect(inferContextWindow("kimi-k2")).toBe(128_000);
    expect(inferContextWindow("my-local-model")).toBe(64_000);
    expect(inferContextWindow("deepseek-chat", 32_768)).toBe(32_768);
  });

  it("reserves min(max(16,384, 25%), 50%) — the seed's table", () => {
    expect(compactionThreshold(64_000)).toBe(47_616);
    expect(compactionThreshold(128_000)).toBe(96_000);
    expect(compactionThreshold(1_000_000)).toBe(750_000);
    expect(compactionThreshold(200_000)).toBe(150_000);
    expect(compactionReserve(20_000)).toBe(10_000);
  });
});

describe("token estimate", () => {
  it("is within 15% of what the scripted model counts for the same request (system, tools, CJK text, tool results)", async () => {
    const key = "[tok-1]";
    scripted.server().push([{ toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] }, { text: "好的" }], key);
    const history = [
      user("请用威科夫方法分析 600519 贵州茅台的吸筹阶段，重点看成交量。"),
      assistantText("好的，我先看看市场时钟。"),
    ];
    const run = await runHarnessTurn({
      models: models(),
      text: `现在几点？ ${key} ${"最近的交易区间和弹簧测试。".repeat(30)}`,
      history,
    });
    const second = scripted.server().requests(key)[1];
    const reported =
      run.chunks
        .filter((c) => c.type === "data-usage")
        .map((c) => (c as { data: { inputTokens: number } }).data.inputTokens)[1] ?? 0;
    const sent: ModelMessage[] = [
      ...history,
      user(`现在几点？ ${key} ${"最近的交易区间和弹簧测试。".repeat(30)}`),
      ...run.appended.slice(0, 2),
    ];
    const ours = requestTokens("You are a test.", toolSchemas(TOOLS), sent);
    expect(second?.body?.messages.length).toBe(sent.length + 1);
    expect(Math.abs(ours - reported) / reported).toBeLessThan(0.15);
  });
});

describe("tail selection", () => {
  it("keeps at least 4 messages and never starts the tail with a tool result", () => {
    const messages = [
      user("a"),
      call("c1"),
      result("c1"),
      assistantText("b"),
      user("c"),
      call("c2"),
      result("c2"),
      assistantText("d"),
    ];
    const start = selectTailStart(messages, () => 10);
    expect(start).toBe(0 === start ? null : start);
    // Tiny messages: everything fits in the tail, nothing to compact.
    expect(selectTailStart(messages, () => 10)).toBeNull();
    // Big messages: the tail stops at the 20K budget but keeps ≥ 4 messages, and moves back off a tool message.
    const big = selectTailStart(messages, () => 9_000);
    expect(big).not.toBeNull();
    expect(messages[big ?? 0]?.role).not.toBe("tool");
    expect(messages.length - (big ?? 0)).toBeGreaterThanOrEqual(4);
  });

  it("keeps a tool result with its call when the budget boundary falls between them", () => {
    const messages = [
      user("q1"),
      assistantText("x"),
      user("q2"),
      call("c9"),
      result("c9", { big: "y".repeat(60_000) }),
      assistantText("z"),
      user("q3"),
      assistantText("w"),
    ];
    const start = selectTailStart(messages) ?? 0;
    const tail = messages.slice(start);
    const calls = tail.flatMap((m) =>
      m.role === "assistant" && Array.isArray(m.content)
        ? m.content.filter((p) => p.type === "tool-call").map((p) => p.toolCallId)
        : [],
    );
    const results = tail.flatMap((m) =>
      m.role === "tool" ? m.content.map((p) => (p.type === "tool-result" ? p.toolCallId : "")) : [],
    );
    for (const id of results) expect(calls).toContain(id);
  });
});

describe("compaction in the loop", () => {
  it("summarises the head when the estimate passes window − reserve, flushing memory first", async () => {
    const key = "[cmp-1]";
    scripted.server().push([{ text: "摘要：用户在研究 600519 的吸筹阶段，偏好看成交量。" }], "[compaction]");
    scripted.server().push([{ text: "继续分析。" }], key);
    const history: ModelMessage[] = [];
    for (let i = 0; i < 60; i++)
      history.push(
        user(`第 ${i} 个问题：${"成交量与价差的关系，".repeat(20)}`),
        assistantText(`回答 ${i}：${"阶段 B 中的测试。".repeat(20)}`),
      );
    const run = await runHarnessTurn({
      models: models(),
      text: `继续 ${key}`,
      history,
      limits: { contextWindow: 24_000 },
    });
    expect(run.result.status).toBe("done");
    const event = run.chunks.find((c) => c.type === "data-compaction") as {
      data: { tokensBefore: number; tokensAfter: number; summaryChars: number };
    };
    expect(event.data.tokensBefore).toBeGreaterThan(compactionThreshold(24_000));
    expect(event.data.tokensAfter).toBeLessThan(compactionThreshold(24_000));
    expect(run.compactions).toHaveLength(1);
    expect(run.compactions[0]?.summary.length).toBeLessThanOrEqual(500);
    expect(run.flushed[0]).toBe(run.compactions[0]?.coveredCount);
    const sent = scripted.server().requests(key)[0]?.body?.messages ?? [];
    expect(sent[1]?.content).toContain("[对话摘要]");
    expect(JSON.stringify(sent)).not.toContain("第 0 个问题");
  });

  it("keeps running on the uncompacted view when the summary request fails, and says so", async () => {
    const key = "[cmp-2]";
    scripted.server().push([{ status: 400, body: { error: { message: "bad" } } }], "[compaction]");
    scripted.server().push([{ text: "still answering" }], key);
    const history: ModelMessage[] = [];
    for (let i = 0; i < 40; i++)
      history.push(
        user(`q${i} ${"volume spread analysis ".repeat(40)}`),
        assistantText(`a${i} ${"phase B tests ".repeat(40)}`),
      );
    const run = await runHarnessTurn({
      models: models(),
      text: `go ${key}`,
      history,
      limits: { contextWindow: 20_000 },
    });
    expect(run.result.status).toBe("done");
    expect(run.chunks.find((c) => c.type === "data-compaction")).toMatchObject({ data: { failed: true } });
    expect(run.compactions).toEqual([]);
  });

  it("cuts a single message larger than the whole window instead of sending a request the provider must reject", async () => {
    const key = "[huge-1]";
    scripted.server().push([{ text: "ok" }], key);
    const run = await runHarnessTurn({
      models: models(),
      text: `${key} ${"巨大的输入".repeat(10_000)}`,
      limits: { contextWindow: 8_000 },
    });
    expect(run.result.status).toBe("done");
    expect(run.chunks.find((c) => c.type === "data-compaction")).toMatchObject({ data: { truncatedMessages: 1 } });
    const sent = scripted.server().requests(key)[0];
    expect(JSON.stringify(sent?.body?.messages)).toContain("characters cut to fit");
  });

  it("keeps a long scripted session (200+ rounds across turns) under the threshold, answering every turn", async () => {
    const key = "[long-1]";
    const window = 16_000;
    const clockOnly = TOOLS.filter((t) => t.spec.name === "get_time");
    scripted.server().push(
      Array.from({ length: 40 }, () => ({ text: "摘要：一直在查询上海和纽约的市场时钟。" })),
      "[compaction]",
    );
    let history: ModelMessage[] = [];
    let summary: { text: string; coveredCount: number } | undefined;
    let rounds = 0;
    for (let turn = 0; turn < 26; turn++) {
      scripted.server().push(
        [
          ...Array.from({ length: 7 }, () => ({
            toolCalls: [{ name: "get_time", arguments: { market: turn % 2 ? "us" : "cn" } }],
          })),
          { text: `第 ${turn} 轮完成。` },
        ],
        key,
      );
      const run = await runHarnessTurn({
        models: models(),
        text: `turn ${turn} ${key} ${"看一下时钟。".repeat(10)}`,
        history,
        tools: clockOnly,
        limits: { contextWindow: window },
        ...(summary ? { summary } : {}),
      });
      expect(run.result.status).toBe("done");
      rounds += run.result.rounds;
      const all = [...history, user(`turn ${turn} ${key} ${"看一下时钟。".repeat(10)}`), ...run.appended];
      const last = run.compactions.at(-1);
      if (last) {
        const covered = last.coveredCount - (summary?.coveredCount ?? 0);
        summary = { text: last.summary, coveredCount: last.coveredCount };
        history = all.slice(covered);
      } else history = all;
    }
    expect(rounds).toBeGreaterThanOrEqual(200);
    const requests = scripted.server().requests(key);
    expect(requests).toHaveLength(rounds);
    // What the provider counted for every request stayed inside the window.
    for (const r of requests) expect(estimatePromptTokens(r.body ?? { messages: [] })).toBeLessThan(window);
    expect(wasCompacted(summary)).toBe(true);
    expect(
      viewOf(
        { summary: summary?.text ?? null, coveredCount: summary?.coveredCount ?? 0, messages: history },
        "zh",
      ).reduce((s, m) => s + messageTokens(m), 0),
    ).toBeLessThan(compactionThreshold(window));
  }, 120_000); // 208 model rounds: ≈ 2.5 s idle, several times that on a busy 2-core machine
});

describe("stale results", () => {
  const keysOf = outputKeysOf(TOOLS);

  it("shrinks earlier rounds' results over 800 characters, keeps the latest round whole", () => {
    const big = { timezone: "Asia/Shanghai", note: "x".repeat(2_000), localDate: "2026-11-30" };
    const messages = [user("q"), call("a"), result("a", big), call("b"), result("b", big)];
    const view = shrinkStaleResults(messages, keysOf);
    const first = view[2]?.role === "tool" ? view[2].content[0] : undefined;
    const last = view[4]?.role === "tool" ? view[4].content[0] : undefined;
    expect(
      first?.type === "tool-result" &&
        first.output.type === "json" &&
        (first.output.value as { summarized: boolean }).summarized,
    ).toBe(true);
    expect(last?.type === "tool-result" && last.output.type === "json" && last.output.value).toEqual(big);
    expect(messages[2]).toEqual(result("a", big)); // the stored transcript is untouched
  });

  it("never names a key the tool's output schema does not declare", () => {
    for (const t of TOOLS) {
      const declared = keysOf(t.spec.name);
      if (!declared) continue;
      const output = Object.fromEntries([...declared].map((k) => [k, "v".repeat(300)]));
      const summary = summarizeOutput({ ...output, notDeclared: 1, secretInternal: "x" }, declared) as Record<
        string,
        unknown
      >;
      for (const key of Object.keys(summary))
        if (key !== "summarized") expect(declared.has(key), `${t.spec.name}.${key}`).toBe(true);
    }
  });
});
