/**
 * Memory recall inside workerd with 10,000 memories in D1, spread over 40 people at about the caps'
 * total (250 each; pruning keeps a person near 285): p50 of the whole recall of one person — query
 * building, one D1 batch (owner-scoped trigram FTS bm25 + pinning candidates), scoring and the
 * block — over varied Chinese and English questions. The corpus is deliberately repetitive (a small
 * vocabulary), so most questions match a large share of that person's memories.
 */
import { env } from "cloudflare:test";
import { it } from "vitest";
import { formatId } from "../../worker/lib/ids";
import { createLogger } from "../../worker/lib/log";
import { extractKeywords, padTerms } from "../../worker/memory/keywords";
import { stockCodes } from "../../worker/memory/stock-codes";
import { createMemoryRecall } from "../../worker/runtime/memory/recall-memories";
import { memoryStoreOf } from "../../worker/session/session-memory";
import type { Metric } from "../support/record";

const bindings = env as typeof env & { BENCH_COLLECTOR_URL: string };
const OWNERS = 40;
/** Owner ids as the identity layer makes them: distinct random strings. */
const OWNER_IDS = Array.from({ length: OWNERS }, (_, i) =>
  formatId(
    new Uint8Array(16).map((_, j) => (i * 37 + j * 101 + 13) % 256),
    "u_",
  ),
);
const OWNER = OWNER_IDS[0] ?? "";
const COUNT = 10_000;
const TYPES = ["preference", "decision", "lesson", "fact", "stock_opinion", "market_view", "scenario", "session"];
const ZH = [
  "放量突破",
  "回踩确认",
  "缩量企稳",
  "主升浪",
  "止损",
  "仓位控制",
  "弹簧效应",
  "派发区间",
  "吸筹",
  "均线",
  "量价背离",
  "冰线",
  "右侧交易",
  "低吸",
  "分批建仓",
  "板块轮动",
  "银行股",
  "成长股",
  "周线",
  "趋势",
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
  "stop-loss",
  "position sizing",
  "trend",
  "support",
  "resistance",
  "momentum",
];
const CODES = ["600519", "000001", "300750", "601318", "000858", "688981"];

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T;
}

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

it("memory recall with 10,000 memories in D1", async () => {
  const rng = lcg(7);
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < COUNT; i++) {
    const content =
      `我喜欢${pick(rng, ZH)}之后${pick(rng, ZH)}，${pick(rng, ZH)}时注意${pick(rng, ZH)}。` +
      ` I prefer ${pick(rng, EN)} with ${pick(rng, EN)}` +
      (rng() < 0.2 ? ` on ${pick(rng, CODES)}.` : ".") +
      ` #${i}`;
    statements.push(
      env.DB.prepare(
        `INSERT INTO memories (id, owner_id, type, content, keywords, codes, origin, source_ref, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'rule', ?7, ?8, ?8)`,
      ).bind(
        `mem_bench${i}`,
        OWNER_IDS[i % OWNERS] ?? OWNER,
        pick(rng, TYPES),
        content,
        padTerms(extractKeywords(content)),
        padTerms(stockCodes(content)),
        JSON.stringify({ sessionId: "s_bench", messageIds: [`m_${i}`] }),
        now - Math.floor(rng() * 120) * 86_400_000,
      ),
    );
  }
  for (let i = 0; i < statements.length; i += 500) await env.DB.batch(statements.slice(i, i + 500));

  const touches: Promise<unknown>[] = [];
  const recall = createMemoryRecall({
    store: memoryStoreOf(env.DB),
    now: Date.now,
    log: createLogger(() => {}),
    defer: (work) => touches.push(work),
  });
  const questions = Array.from({ length: 60 }, (_, i) =>
    i % 3 === 0
      ? `${pick(rng, ZH)}和${pick(rng, ZH)}怎么判断？`
      : i % 3 === 1
        ? `How should I size a ${pick(rng, EN)} entry after a ${pick(rng, EN)}?`
        : `${pick(rng, CODES)} 现在${pick(rng, ZH)}了吗 ${pick(rng, EN)}`,
  );
  for (const q of questions.slice(0, 5)) await recall.recall({ userId: OWNER, sessionId: "s_b", text: q });
  const samples: number[] = [];
  for (const q of questions) {
    const started = Date.now();
    await recall.recall({ userId: OWNER, sessionId: "s_b", text: q });
    samples.push(Date.now() - started);
  }
  await Promise.all(touches);
  const sorted = [...samples].sort((a, b) => a - b);
  await report({
    id: "memory_recall_10k_ms",
    name: "memory recall with 10,000 memories in D1 (p50, workerd)",
    value: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    unit: "ms",
    goal: 5,
  });
  await report({
    id: "memory_recall_10k_p90_ms",
    name: "memory recall with 10,000 memories in D1 (p90, workerd)",
    value: sorted[Math.floor(sorted.length * 0.9)] ?? Number.NaN,
    unit: "ms",
  });
});
