/**
 * Memory recall inside workerd over real D1: first 10,000 memories spread over 40 people (about the
 * caps' total each; pruning keeps a person near 285), then one person alone at 1,000, 10,000 and
 * 50,000 memories (beyond what pruning allows: the worst case) — median, mean and p90 of the whole
 * recall of one person, and the growth from 1k. The corpus is deliberately repetitive (a small
 * vocabulary), so most questions match a large share of that person's memories. Rows are written as
 * the store writes them (memories, FTS row by trigger, terms and their statistics). The D1 round trip
 * of `SELECT 1` is reported too: the floor under any recall on this machine.
 */
import { env } from "cloudflare:test";
import { it } from "vitest";
import { formatId } from "../../worker/lib/ids";
import { createLogger } from "../../worker/lib/log";
import { extractKeywords, padTerms } from "../../worker/memory/keywords";
import { stockCodes } from "../../worker/memory/stock-codes";
import { createMemoryRecall } from "../../worker/runtime/memory/recall-memories";
import { insertTermsStatement } from "../../worker/storage/memory-terms";
import { memoryStoreOf } from "../../worker/storage/memory-repo";
import { growth, timing, type Metric } from "../support/record";

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

/**
 * Writes `count` memories as the store writes them (one memories insert of a JSON batch, its terms in
 * the same D1 batch; the FTS row by trigger), `from` numbering them on.
 */
async function seed(
  rng: () => number,
  owners: readonly string[],
  from: number,
  count: number,
  now: number,
): Promise<void> {
  const BATCH = 250;
  for (let start = from; start < from + count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(from + count, start + BATCH); i++) {
      const content =
        `我喜欢${pick(rng, ZH)}之后${pick(rng, ZH)}，${pick(rng, ZH)}时注意${pick(rng, ZH)}。` +
        ` I prefer ${pick(rng, EN)} with ${pick(rng, EN)}` +
        (rng() < 0.2 ? ` on ${pick(rng, CODES)}.` : ".") +
        ` #${i}`;
      rows.push({
        id: `mem_bench${i}`,
        owner: owners[i % owners.length] ?? OWNER,
        type: pick(rng, TYPES),
        content,
        keywords: extractKeywords(content),
        codes: stockCodes(content),
        source: JSON.stringify({ sessionId: "s_bench", messageIds: [`m_${i}`] }),
        at: now - Math.floor(rng() * 120) * 86_400_000,
      });
    }
    const statements: D1PreparedStatement[] = [
      env.DB.prepare(
        `INSERT INTO memories (id, owner_id, type, content, keywords, codes, origin, source_ref, created_at, updated_at)
         SELECT json_extract(value, '$.id'), json_extract(value, '$.owner'), json_extract(value, '$.type'),
           json_extract(value, '$.content'), json_extract(value, '$.keywords'), json_extract(value, '$.codes'), 'rule',
           json_extract(value, '$.source'), json_extract(value, '$.at'), json_extract(value, '$.at')
         FROM json_each(?1)`,
      ).bind(JSON.stringify(rows.map((r) => ({ ...r, keywords: padTerms(r.keywords), codes: padTerms(r.codes) })))),
    ];
    for (const owner of new Set(rows.map((r) => r.owner)))
      statements.push(
        insertTermsStatement(
          env.DB,
          owner,
          rows.filter((r) => r.owner === owner),
        ),
      );
    await env.DB.batch(statements);
  }
}

/** Each input's wall time in ms (after a warm-up on the first five). */
async function samplesOf<T>(inputs: readonly T[], run: (input: T) => Promise<unknown>): Promise<number[]> {
  for (const input of inputs.slice(0, 5)) await run(input);
  const samples: number[] = [];
  for (const input of inputs) {
    const started = performance.now();
    await run(input);
    samples.push(performance.now() - started);
  }
  return samples;
}

const SIZES = [
  { label: "1k", count: 1_000 },
  { label: "10k", count: 10_000 },
  { label: "50k", count: 50_000 },
] as const;

const TIMED =
  "wall time of one createMemoryRecall().recall() for one person (query building, the D1 batch: persona, preferences and the bm25 candidates, scoring, the block); the deferred last_hit_at update is not awaited, but D1 runs it before the next recall's batch, so its cost lands in the next sample; 60 questions (Chinese, English, codes) after 5 warm-ups";

/** Per test: seeding tens of thousands of rows on a loaded 2-core machine takes minutes, not a budget. */
const SEED_TIMEOUT_MS = 45 * 60_000;

const rng = lcg(7);
const now = Date.now();
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
const ask = (q: string) => recall.recall({ userId: OWNER, sessionId: "s_b", text: q });

it(
  "memory recall with 10,000 memories over 40 people, and the D1 round trip",
  async () => {
    // 10,000 memories over 40 people (about the caps' total each) first: the common shape.
    await seed(rng, OWNER_IDS, 0, 10_000, now);
    const spread = await samplesOf(questions, ask);
    const floor = await samplesOf(questions, () => env.DB.prepare("SELECT 1").all());
    await Promise.all(touches);
    await env.DB.exec("DELETE FROM memories");
    await report({
      id: "memory_recall_10k_ms",
      name: "memory recall, 10,000 memories in D1 over 40 people (workerd)",
      ...timing(spread),
      unit: "ms",
      goal: 5,
      timed: `${TIMED}; 250 memories per person`,
    });
    await report({
      id: "d1_round_trip_ms",
      name: "D1 round trip of SELECT 1 (workerd)",
      ...timing(floor),
      unit: "ms",
      timed: "wall time of env.DB.prepare('SELECT 1').all(): the floor under any recall on this machine",
    });
  },
  SEED_TIMEOUT_MS,
);

// Then one person alone at growing sizes (beyond what pruning allows: the worst case), one test each.
let stored = 0;
let smallest: number | undefined;
for (const size of SIZES) {
  it(
    `memory recall, ${size.label} memories under one person`,
    async () => {
      const seeding = performance.now();
      await seed(rng, [OWNER], stored, size.count - stored, now);
      const seeded = performance.now() - seeding;
      const added = size.count - stored;
      stored = size.count;
      const samples = await samplesOf(questions, ask);
      await Promise.all(touches);
      const t = timing(samples);
      smallest ??= t.value;
      await report({
        id: `memory_recall_${size.label}_one_owner_ms`,
        name: `memory recall, ${size.label} memories under one person (workerd, D1)`,
        ...t,
        unit: "ms",
        goal: 5,
        growth: growth(t.value, smallest, SIZES[0].label),
        timed: TIMED,
      });
      await report({
        id: `memory_seed_${size.label}_ms_per_memory`,
        name: `bench set-up: writing memories up to ${size.label} (per memory)`,
        value: Math.round((seeded / added) * 1000) / 1000,
        unit: "ms",
        timed: `wall time of seeding ${added} memories (memories row, FTS row by trigger, terms and their statistics by trigger; 250 per D1 batch) ÷ ${added}: why this file takes minutes`,
      });
    },
    SEED_TIMEOUT_MS,
  );
}
