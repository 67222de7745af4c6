import { describe, expect, it } from "vitest";
import type { MemoryType } from "../../../worker/contracts/memory";
import { DAY_MS } from "../../../worker/memory/caps";
import { memoryBlock, memoryLine } from "../../../worker/memory/memory-block";
import { parseModelAtoms } from "../../../worker/memory/model-atoms";
import { decay, scoreCandidates, selectForRecall, type RecallCandidate } from "../../../worker/memory/score";

const NOW = 1_800_000_000_000;

function candidate(id: string, type: MemoryType, over: Partial<RecallCandidate> = {}): RecallCandidate {
  return {
    id,
    type,
    content: `memory ${id}`,
    keywords: [],
    codes: [],
    relevance: 1,
    updatedAt: NOW,
    source: { sessionId: "s_1", messageIds: [] },
    bm25: null,
    ...over,
  };
}

const tokens = (text: string) => Math.ceil(text.length / 4);

describe("decay", () => {
  it("halves every 30 days, except preference and persona", () => {
    expect(decay("decision", NOW - 30 * DAY_MS, NOW)).toBeCloseTo(0.5);
    expect(decay("lesson", NOW - 60 * DAY_MS, NOW)).toBeCloseTo(0.25);
    expect(decay("preference", NOW - 300 * DAY_MS, NOW)).toBe(1);
    expect(decay("persona", NOW - 300 * DAY_MS, NOW)).toBe(1);
    expect(decay("fact", NOW + DAY_MS, NOW)).toBe(1);
  });
});

describe("scoreCandidates", () => {
  it("blends bm25, exact codes and keyword overlap, decayed", () => {
    const scored = scoreCandidates(
      [
        candidate("fts", "decision", { bm25: -4 }),
        candidate("half", "decision", { bm25: -2 }),
        candidate("code", "decision", { codes: ["600519"] }),
        candidate("kw", "decision", { keywords: ["回踩", "确认", "缩量"] }),
        candidate("old", "decision", { bm25: -4, updatedAt: NOW - 30 * DAY_MS }),
        candidate("none", "decision"),
      ],
      { codes: ["600519"], keywords: ["回踩", "确认", "缩量"] },
      NOW,
    );
    const by = Object.fromEntries(scored.map((s) => [s.id, s.score]));
    expect(by.fts).toBeCloseTo(1.1);
    expect(by.half).toBeCloseTo(0.55);
    expect(by.code).toBeCloseTo(0.85 * 1.1);
    expect(by.kw).toBeCloseTo(0.6 * 1.1);
    expect(by.old).toBeCloseTo(0.55);
    expect(by.none).toBe(0);
  });
});

describe("selectForRecall", () => {
  it("pins the last persona and 5 preferences, then the best others, within top 10", () => {
    const scored = scoreCandidates(
      [
        candidate("p-old", "persona", { updatedAt: NOW - DAY_MS }),
        candidate("p-new", "persona"),
        ...Array.from({ length: 7 }, (_, i) => candidate(`pref${i}`, "preference", { updatedAt: NOW - i })),
        ...Array.from({ length: 8 }, (_, i) => candidate(`d${i}`, "decision", { bm25: -(i + 1) })),
        candidate("irrelevant", "lesson"),
      ],
      { codes: [], keywords: [] },
      NOW,
    );
    const chosen = selectForRecall(scored, { format: memoryLine, tokens });
    expect(chosen.map((m) => m.id)).toEqual([
      "p-new",
      "pref0",
      "pref1",
      "pref2",
      "pref3",
      "pref4",
      "d7",
      "d6",
      "d5",
      "d4",
    ]);
    expect(chosen.slice(0, 6).every((m) => m.pinned)).toBe(true);
  });

  it("stays within the token budget", () => {
    const long = "很长的记忆".repeat(100);
    const scored = scoreCandidates(
      Array.from({ length: 5 }, (_, i) => candidate(`d${i}`, "decision", { bm25: -1, content: long })),
      { codes: [], keywords: [] },
      NOW,
    );
    const chosen = selectForRecall(scored, { format: memoryLine, tokens: (t) => t.length, budget: 600 });
    expect(chosen).toHaveLength(1);
    expect(selectForRecall(scored, { format: memoryLine, tokens: (t) => t.length, budget: 100 })).toEqual([]);
  });
});

describe("memory block", () => {
  it("formats typed lines with their source session", () => {
    const line = memoryLine({ type: "preference", content: "我喜欢\n低吸", source: { sessionId: "s_9" } });
    expect(line).toBe("- [偏好 preference] 我喜欢 低吸 | source: s_9");
    expect(memoryBlock([line]).split("\n")).toHaveLength(2);
  });
});

describe("parseModelAtoms", () => {
  it("keeps prefixed lines of the allowed types, refusing what is never stored", () => {
    const text =
      "[偏好] 只做右侧交易，不抄底\n[决策] 跌破冰线就离场，因为结构失效\n- [画像] 稳健型趋势交易者\n[偏好] 今天买入了600519\n随便一行\n[其他] x";
    expect(parseModelAtoms(text, ["preference", "decision"])).toEqual([
      { type: "preference", content: "只做右侧交易，不抄底" },
      { type: "decision", content: "跌破冰线就离场，因为结构失效" },
    ]);
    expect(parseModelAtoms(text, ["persona", "scenario"])).toEqual([{ type: "persona", content: "稳健型趋势交易者" }]);
    expect(parseModelAtoms("NONE", ["preference"])).toEqual([]);
  });
});
