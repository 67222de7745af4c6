/**
 * Model calls outside the round loop report their tokens: the report writer, the compaction
 * summarizer and the memory pass (each `generateText`), so their usage can be counted by purpose;
 * the ledger merges entries of one purpose and model and keeps the others apart.
 */
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../worker/lib/log";
import { modelSummarizer } from "../../../worker/runtime/context/summarize";
import { modelMemoryPass } from "../../../worker/runtime/memory/model-memory-pass";
import { writeReport } from "../../../worker/runtime/reports/write-report";
import type { RoundUsage } from "../../../worker/runtime/stream-round";
import { addEntry, ZERO_USAGE, type UsageEntry } from "../../../worker/runtime/usage";
import { createMemoryStoreFake } from "../memory/memory-fakes";

function flat(ledger: readonly UsageEntry[]): [string, string, number, number][] {
  return ledger.map((e) => [e.purpose, e.modelId, e.calls, e.usage.inputTokens]);
}

function model(text: string, input: number, output: number): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: input, noCache: input - 7, cacheRead: 7, cacheWrite: undefined },
        outputTokens: { total: output, text: output, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

describe("usage of generateText calls", () => {
  it("the report writer returns its tokens with the report", async () => {
    const written = await writeReport(model("A short note.", 1234, 56), [], false);
    expect(written.ruleBased).toBe(false);
    expect(written.usage).toMatchObject({ inputTokens: 1234, outputTokens: 56, cachedInputTokens: 7 });
    // The offline path calls no model and reports no usage.
    expect((await writeReport(undefined, [], false)).usage).toBeUndefined();
  });

  it("the summarizer hands each call's tokens to its sink", async () => {
    const seen: RoundUsage[] = [];
    const summarize = modelSummarizer(model("summary", 900, 40), new AbortController().signal, (u) => seen.push(u));
    expect(await summarize([{ role: "user", content: "hello" }], null, "en")).toBe("summary");
    expect(seen).toEqual([expect.objectContaining({ inputTokens: 900, outputTokens: 40 })]);
  });

  it("the memory pass reports every model call it makes", async () => {
    const seen: RoundUsage[] = [];
    await modelMemoryPass(
      {
        store: createMemoryStoreFake(),
        model: model("NONE", 300, 5),
        now: () => 1_800_000_000_000,
        log: createLogger(() => {}),
        onUsage: (u) => seen.push(u),
      },
      {
        ownerId: "u1",
        sessionId: "s_1",
        messages: [
          { id: "m_1", role: "user", text: "我一般只做右侧" },
          { id: "m_2", role: "assistant", text: "好的" },
        ],
      },
    );
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen[0]).toMatchObject({ inputTokens: 300, outputTokens: 5 });
  });

  it("merges a purpose's entries per model and keeps purposes apart", () => {
    const u = (n: number): RoundUsage => ({ ...ZERO_USAGE, inputTokens: n, outputTokens: 1, costUsd: n / 1e6 });
    let ledger = addEntry([], { purpose: "turn", modelId: "m", calls: 1, usage: u(100) });
    ledger = addEntry(ledger, { purpose: "subagent", modelId: "m", calls: 3, usage: u(1820) });
    ledger = addEntry(ledger, { purpose: "turn", modelId: "m", calls: 1, usage: u(50) });
    expect(flat(ledger)).toEqual([
      ["turn", "m", 2, 150],
      ["subagent", "m", 3, 1820],
    ]);
  });
});
