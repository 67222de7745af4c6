/**
 * Recall equivalence in workerd: on a fixed corpus (Chinese and English, codes, every type, ages up
 * to 120 days) recall returns the same memories in the same order as the trigram FTS5 bm25 plan did
 * before the owner-scoped term table replaced it. EXPECTED was recorded from that plan (commit
 * ed961f9's D1MemoryStore.recallRows) with Alice's memories alone in D1. With Bob's memories added
 * (same vocabulary) the FTS5 plan's lists moved in 3 places — its IDF counted everyone's rows — while
 * the term table's statistics are Alice's own, so her recall stays as it was. Also: the term index
 * follows edits and deletes, and memories stored before it existed are indexed by `indexPending`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MemoryType } from "../../worker/contracts/memory";
import { createLogger } from "../../worker/lib/log";
import { DAY_MS } from "../../worker/memory/caps";
import { extractKeywords } from "../../worker/memory/keywords";
import { stockCodes } from "../../worker/memory/stock-codes";
import { createMemoryRecall } from "../../worker/runtime/memory/recall-memories";
import { memoryStoreOf } from "../../worker/storage/memory-repo";
import { POSTINGS_PER_TERM } from "../../worker/storage/memory-terms";
import { testEnv } from "./test-env";

const NOW = Date.UTC(2026, 5, 1);
const OWNERS = ["u_equiv_alice", "u_equiv_bob"] as const;
const TYPES: MemoryType[] = [
  "preference",
  "decision",
  "lesson",
  "fact",
  "stock_opinion",
  "market_view",
  "scenario",
  "session",
];
const ZH = [
  "放量突破",
  "回踩确认",
  "缩量企稳",
  "主升浪",
  "止损纪律",
  "仓位控制",
  "弹簧效应",
  "派发区间",
  "吸筹阶段",
  "均线粘合",
  "量价背离",
  "冰线",
  "右侧交易",
  "分批建仓",
  "板块轮动",
  "银行股",
  "成长股",
  "周线级别",
];
const EN = [
  "breakout",
  "pullback",
  "volume",
  "spring",
  "upthrust",
  "accumulation",
  "distribution",
  "weekly",
  "support",
];
const CODES = ["600519", "000001", "300750", "601318"];

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T;
}

/** 90 memories per person; the same generator for both, so their vocabularies overlap. */
function corpus(seed: number): { type: MemoryType; content: string; age: number }[] {
  const rng = lcg(seed);
  return Array.from({ length: 90 }, (_, i) => {
    const zh =
      i % 3 === 0
        ? `我更喜欢${pick(rng, ZH)}之后再看${pick(rng, ZH)}`
        : i % 3 === 1
          ? `${pick(rng, ZH)}出现时先确认${pick(rng, ZH)}，不追高`
          : `${pick(rng, ZH)}配合${pick(rng, ZH)}和${pick(rng, ZH)}`;
    const en = rng() < 0.6 ? ` I prefer a ${pick(rng, EN)} with ${pick(rng, EN)}.` : "";
    const code = rng() < 0.25 ? ` ${pick(rng, CODES)}` : "";
    return { type: pick(rng, TYPES), content: `${zh}。${en}${code}`.trim(), age: Math.floor(rng() * 120) };
  });
}

const QUESTIONS = [
  "放量突破之后怎么做？",
  "回踩确认和缩量企稳怎么判断",
  "How do I trade a breakout after a pullback?",
  "600519 现在是派发区间吗",
  "弹簧效应 spring 出现了吗",
  "周线级别的主升浪还能拿吗",
  "what about weekly volume on 300750",
  "板块轮动时仓位控制怎么做",
  'NEAR("冰线" AND *) OR 右侧交易 (',
  "今天天气不错",
  "I like accumulation more than distribution",
  "000001 银行股有支撑吗 support",
  "止损纪律和仓位控制哪个重要",
  "upthrust 之后是派发区间吗",
  "成长股的右侧交易",
];

/** Corpus positions (Alice's memories) recalled for each question, in order, by the FTS5 plan. */
const EXPECTED: Record<string, number[]> = {
  "放量突破之后怎么做？": [27, 50, 7, 76, 17, 5, 44, 70, 85, 62],
  回踩确认和缩量企稳怎么判断: [59, 53, 14, 54, 88, 83, 65, 5, 30, 49],
  "How do I trade a breakout after a pullback?": [7, 27, 54, 50, 76, 77, 4, 81, 85, 29],
  "600519 现在是派发区间吗": [88, 76, 17, 61, 18, 74, 51, 77, 34, 49],
  "弹簧效应 spring 出现了吗": [27, 18, 22, 69, 7, 28, 77, 23, 68, 49],
  周线级别的主升浪还能拿吗: [12, 59, 50, 76, 17, 23, 10, 25, 35, 24],
  "what about weekly volume on 300750": [14, 69, 22, 17, 61, 28, 86, 21, 80, 15],
  板块轮动时仓位控制怎么做: [53, 69, 7, 76, 17, 83, 65, 74, 75, 1],
  'NEAR("冰线" AND *) OR 右侧交易 (': [59, 14, 17, 61, 69, 5, 1, 80, 64, 20],
  今天天气不错: [76, 17, 61, 18, 53],
  "I like accumulation more than distribution": [18, 27, 61, 54, 76, 88, 65, 21, 68, 1],
  "000001 银行股有支撑吗 support": [76, 50, 12, 14, 54, 28, 5, 18, 89, 86],
  止损纪律和仓位控制哪个重要: [53, 22, 88, 69, 7, 83, 51, 75, 44, 30],
  "upthrust 之后是派发区间吗": [14, 17, 50, 88, 76, 74, 51, 77, 49, 31],
  成长股的右侧交易: [59, 14, 17, 61, 76, 5, 1, 80, 75, 64],
};

const ids = new Map<string, number>();

async function addCorpus(o: number): Promise<void> {
  const store = memoryStoreOf(testEnv.DB);
  for (const [i, m] of corpus(11 + o).entries()) {
    const [id] = await store.add(
      OWNERS[o] ?? "",
      [
        {
          type: m.type,
          content: m.content,
          keywords: extractKeywords(m.content),
          codes: stockCodes(m.content),
          origin: "rule",
          source: { sessionId: "s_equiv", messageIds: [`m_${o}_${i}`] },
        },
      ],
      NOW - m.age * DAY_MS,
    );
    if (id && o === 0) ids.set(id, i);
  }
}

async function recallAll(owner: string = OWNERS[0]): Promise<Record<string, number[]>> {
  const recall = createMemoryRecall({
    store: memoryStoreOf(testEnv.DB),
    now: () => NOW,
    log: createLogger(() => {}),
    defer: () => {},
  });
  const got: Record<string, number[]> = {};
  for (const q of QUESTIONS) {
    const result = await recall.recall({ userId: owner, sessionId: "s_q", text: q });
    got[q] = (result?.ids ?? []).map((id) => ids.get(id) ?? -1);
  }
  return got;
}

beforeAll(() => addCorpus(0));

describe("memory recall equivalence", () => {
  it("returns the same memories in the same order as the FTS5 bm25 plan", async () => {
    expect(await recallAll()).toEqual(EXPECTED);
  });

  it("ranks one person's memories by their own statistics: another person's memories change nothing", async () => {
    await addCorpus(1);
    expect(await recallAll()).toEqual(EXPECTED);
    const bob = await recallAll(OWNERS[1]);
    expect(
      Object.values(bob)
        .flat()
        .every((i) => i === -1),
    ).toBe(true);
  });

  it("follows edits and deletes, and indexes memories stored before the term table", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const owner = "u_equiv_carol";
    const recall = createMemoryRecall({ store, now: () => NOW, log: createLogger(() => {}), defer: () => {} });
    const ask = async (text: string) => (await recall.recall({ userId: owner, sessionId: "s_c", text }))?.ids ?? [];
    const [id = ""] = await store.add(
      owner,
      [
        {
          type: "lesson",
          content: "缩量企稳之后再加仓 rebalance",
          keywords: extractKeywords("缩量企稳之后再加仓 rebalance"),
          codes: [],
          origin: "rule",
          source: { sessionId: "s_c", messageIds: ["m_c"] },
        },
      ],
      NOW,
    );
    expect(await ask("缩量企稳")).toEqual([id]);
    await store.update(owner, id, { content: "冰线下方不抄底 icebreak", keywords: ["冰线", "icebreak"] }, NOW);
    expect(await ask("缩量企稳")).toEqual([]);
    expect(await ask("icebreak 冰线")).toEqual([id]);
    await store.remove(owner, id);
    const left = await testEnv.DB.prepare("SELECT count(*) AS n FROM memory_terms WHERE owner_id = ?1")
      .bind(owner)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    // A row written straight to the table, as rows stored before migration 0010 were: no terms.
    await testEnv.DB.prepare(
      `INSERT INTO memories (id, owner_id, type, content, keywords, codes, origin, source_ref, created_at, updated_at)
       VALUES ('mem_legacy', ?1, 'fact', '弹簧效应出现后量能放大 legacyterm', ' 弹簧 legacyterm ', '', 'rule', ?2, ?3, ?3)`,
    )
      .bind(owner, JSON.stringify({ sessionId: "s_c", messageIds: ["m_l"] }), NOW)
      .run();
    expect(await ask("legacyterm")).toEqual([]);
    expect(await store.indexPending(100)).toBe(1);
    expect(await store.indexPending(100)).toBe(0);
    expect(await ask("legacyterm 弹簧效应")).toEqual(["mem_legacy"]);
  });

  it("keeps each person's term statistics equal to a count of their postings through adds, edits and deletes", async () => {
    const counted = await testEnv.DB.prepare(
      `SELECT owner_id, term, count(*) AS df, sum(tf) AS total FROM memory_terms GROUP BY owner_id, term ORDER BY owner_id, term`,
    ).all();
    const kept = await testEnv.DB.prepare(
      `SELECT owner_id, term, df, total FROM memory_term_stats ORDER BY owner_id, term`,
    ).all();
    expect(kept.results.length).toBeGreaterThan(100);
    expect(kept.results).toEqual(counted.results);
    // Removing a memory takes its postings out of the statistics (the delete trigger chain).
    const store = memoryStoreOf(testEnv.DB);
    const before = await testEnv.DB.prepare("SELECT df FROM memory_term_stats WHERE owner_id = ?1 AND term = ''")
      .bind(OWNERS[0])
      .first<{ df: number }>();
    const [first] = await store.list(OWNERS[0], { limit: 1 });
    expect(await store.remove(OWNERS[0], first?.id ?? "")).toBe(true);
    const after = await testEnv.DB.prepare("SELECT df FROM memory_term_stats WHERE owner_id = ?1 AND term = ''")
      .bind(OWNERS[0])
      .first<{ df: number }>();
    expect(after?.df).toBe((before?.df ?? 0) - 1);
  });

  it("ranks a person with more postings per term than a recall reads by the best of them", async () => {
    const store = memoryStoreOf(testEnv.DB);
    const owner = "u_equiv_dave";
    const filler = "放量突破之后回踩确认，缩量企稳时注意仓位控制和止损纪律，周线级别看主升浪 breakout";
    const list = Array.from({ length: POSTINGS_PER_TERM + 50 }, (_, i) => ({
      type: "fact" as const,
      content: `${filler} 第${i}条`,
      keywords: extractKeywords(filler),
      codes: [],
      origin: "rule" as const,
      source: { sessionId: "s_d", messageIds: [`m_d${i}`] },
    }));
    await store.add(owner, list, NOW - 10 * DAY_MS);
    // One short memory, the oldest by insertion order: the best bm25 for "breakout" by its length.
    const [short = ""] = await store.add(
      owner,
      [
        {
          type: "fact",
          content: "breakout 放量",
          keywords: extractKeywords("breakout 放量"),
          codes: [],
          origin: "rule",
          source: { sessionId: "s_d", messageIds: ["m_short"] },
        },
      ],
      NOW - 10 * DAY_MS,
    );
    const recall = createMemoryRecall({ store, now: () => NOW, log: createLogger(() => {}), defer: () => {} });
    const ids = (await recall.recall({ userId: owner, sessionId: "s_d", text: "breakout" }))?.ids ?? [];
    expect(ids[0]).toBe(short);
    expect(ids.length).toBeGreaterThan(1);
  });
});
