/**
 * Where the whole-market funnel's time goes inside workerd (warm snapshot, 200 / 1,000 / 5,300
 * symbols × 320 bars), stage by stage, wall and workerd process CPU (bench/support/process-cpu.ts):
 * the per-batch freshness read (`servingFor`), the snapshot decode (`columnsMany`), the map phase
 * (`screenFeatures` over the decoded columns, no D1), the reduce (`reduceFunnel`), and the whole
 * funnel as market.bench.ts times it (`funnel_snapshot_warm`); and the funnel from the chunks alone
 * (`funnel_d1`, no snapshot wired) split the same way: the chunk read (`d1_read`), the chunk decode
 * over texts read before (`d1_decode`), both as `getColumnsMany` (`d1_columns`), the whole funnel —
 * each with and without the bench's 5,300 × 320 bar objects alive in the isolate (ballast the funnel
 * itself never holds).
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import type { Universe } from "../../worker/background/universe";
import type { SymbolFeatures } from "../../worker/engine/screen/symbol-features";
import { benchUniverse, type BenchSymbol } from "../support/market-universe";
import { median, timing, type Metric } from "../support/record";
import { fillStore, workerdProcess } from "./market-fill";
import { shipped } from "./shipped-bundle";

const SIZES = [200, 1000, 5300] as const;
const BARS = 320;
const bindings = env as typeof env & { BENCH_COLLECTOR_URL: string };
const { screenFeatures, reduceFunnel, createDb, D1MarketCache, MarketSnapshots, decodeBarColumnsMany } = shipped;
const UNIVERSE: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };

/** What each stage's span holds. */
const STAGES: Record<string, string> = {
  empty: "nothing (the bracket's own cost: one SELECT 1 and the CPU reads)",
  fresh: "per batch of 100 one servingFor read (the snapshot's freshness: D1 row + symbols written since)",
  decode: "per batch of 100 columnsMany from the parsed snapshot (320 bars, typed-array columns)",
  decode_map: "per batch of 100 screenFeatures over columnsMany from the parsed snapshot (no D1)",
  reduce: "reduceFunnel over the map phase's features (RPS, L2–L5, sectors, allocation)",
  d1_read:
    "per batch of 100 the chunk read D1MarketCache makes without a snapshot (series rows joined with their yearly chunks, rows as arrays), no decode",
  d1_decode: "per batch of 100 decodeBarColumnsMany over the batch's chunk texts, read before the span (no D1)",
  d1_columns: "per batch of 100 getColumnsMany of D1MarketCache without a snapshot (the chunk read + decode)",
  funnel_d1:
    "the whole funnel as funnel_d1: per batch of 100 screenFeatures through D1MarketCache without a snapshot (chunk read + decode + map), then reduceFunnel",
  funnel:
    "the whole funnel as funnel_snapshot_warm: per batch of 100 screenFeatures through D1MarketCache (freshness read + decode + map), then reduceFunnel",
};

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

/** Wall and workerd CPU of `fn`, bracketed by a D1 round trip (the clock moves on I/O) and a CPU read. */
async function span(fn: () => Promise<void>): Promise<{ wall: number; cpu: number; main: number }> {
  await env.DB.prepare("SELECT 1").first();
  const c0 = await workerdProcess(bindings.BENCH_COLLECTOR_URL);
  const t0 = performance.now();
  await fn();
  await env.DB.prepare("SELECT 1").first();
  const t1 = performance.now();
  const c1 = await workerdProcess(bindings.BENCH_COLLECTOR_URL);
  const diff = (a: number | null, b: number | null) => (a === null || b === null ? Number.NaN : b - a);
  return { wall: t1 - t0, cpu: diff(c0.ms, c1.ms), main: diff(c0.mainMs, c1.mainMs) };
}

/** Fills the store with `n` symbols; only their list outlives the call. */
async function fill(n: number): Promise<BenchSymbol[]> {
  const u = benchUniverse(n, BARS);
  await fillStore(u, n);
  return u.symbols;
}

it(`the funnel's stages at ${SIZES.join(" / ")} symbols`, async () => {
  // Only the symbols and the index stay referenced; each size's bars are generated for its fill and
  // dropped (the same seed gives the same first symbols at every size).
  const { index } = benchUniverse(1, BARS);
  let ballast: unknown = null;
  const lines: string[] = [];
  type Figure = { stage: string; alive: boolean; n: number; wall: number[]; cpu: number[]; main: number[] };
  const figures = new Map<string, Figure>();
  const add = (stage: string, alive: boolean, n: number, r: { wall: number; cpu: number; main: number }) => {
    const key = `${stage}_${alive ? "ballast" : "bare"}_${n}`;
    const f = figures.get(key) ?? { stage, alive, n, wall: [], cpu: [], main: [] };
    f.wall.push(r.wall);
    f.cpu.push(r.cpu);
    f.main.push(r.main);
    figures.set(key, f);
  };
  for (const n of SIZES) {
    const symbols = await fill(n);
    const snapshots = new MarketSnapshots(env.DB, env.SPILLS);
    const store = new D1MarketCache(createDb(env.DB), snapshots);
    expect((await store.rebuildSnapshot("CN", null, 0))?.published).toBe(true);
    const snap = await snapshots.current("CN");
    if (!snap) throw new Error("no snapshot");
    const batches: (typeof symbols)[] = [];
    for (let i = 0; i < n; i += 100) batches.push(symbols.slice(i, i + 100));
    const chunkStore = new D1MarketCache(createDb(env.DB));
    const readChunks = async (ids: readonly string[]) =>
      (
        await env.DB.prepare(
          `SELECT s.symbol_id, s.adjust, s.origin, s.fetched_at, s.simulated, c.bars
           FROM json_each(?1) AS k
           JOIN market_series s ON s.symbol_id = k.value
           LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
           ORDER BY s.symbol_id, c.year`,
        )
          .bind(JSON.stringify(ids))
          .raw<[string, string, string, number, number, string | null]>()
      ).length;
    const texts: string[][][] = [];
    for (const b of batches) {
      const rows = await env.DB.prepare(
        `SELECT c.symbol_id, c.bars FROM json_each(?1) AS k JOIN market_bar_chunks c ON c.symbol_id = k.value ORDER BY c.symbol_id, c.year`,
      )
        .bind(JSON.stringify(b.map((s) => s.id)))
        .raw<[string, string]>();
      const bySymbol = new Map<string, string[]>();
      for (const [id, t] of rows) bySymbol.set(id, [...(bySymbol.get(id) ?? []), t]);
      texts.push([...bySymbol.values()]);
    }
    const inMemory = { getColumnsMany: async (ids: readonly string[], last?: number) => snap.columnsMany(ids, last) };
    let features: SymbolFeatures[] = [];
    const reads: number[] = [];
    const stages: [string, () => Promise<void>][] = [
      ["empty", async () => {}],
      [
        "fresh",
        async () => {
          for (const b of batches) {
            const t0 = performance.now(); // each read is I/O, so the clock moves across it
            await snapshots.servingFor(b.map((s) => s.id));
            reads.push(performance.now() - t0);
          }
        },
      ],
      [
        "d1_read",
        async () => {
          let k = 0;
          for (const b of batches) k += await readChunks(b.map((s) => s.id));
          expect(k).toBeGreaterThanOrEqual(n);
        },
      ],
      [
        "d1_decode",
        async () => {
          let k = 0;
          for (const t of texts) k += decodeBarColumnsMany(t, BARS).length;
          expect(k).toBe(n);
        },
      ],
      [
        "d1_columns",
        async () => {
          let k = 0;
          for (const b of batches)
            k += (
              await chunkStore.getColumnsMany(
                b.map((s) => s.id),
                BARS,
              )
            ).length;
          expect(k).toBe(n);
        },
      ],
      [
        "funnel_d1",
        async () => {
          const fs: SymbolFeatures[] = [];
          for (const b of batches) fs.push(...(await screenFeatures(chunkStore, b, UNIVERSE, index)));
          expect(reduceFunnel(fs, { limit: 12, index }).summary.total_scanned).toBe(n);
        },
      ],
      [
        "decode",
        async () => {
          let k = 0;
          for (const b of batches)
            k += snap.columnsMany(
              b.map((s) => s.id),
              BARS,
            ).length;
          expect(k).toBe(n);
        },
      ],
      [
        "decode_map",
        async () => {
          features = [];
          for (const b of batches) features.push(...(await screenFeatures(inMemory, b, UNIVERSE, index)));
        },
      ],
      [
        "reduce",
        async () => {
          expect(reduceFunnel(features, { limit: 12, index }).summary.total_scanned).toBe(n);
        },
      ],
      [
        "funnel",
        async () => {
          const fs: SymbolFeatures[] = [];
          for (const b of batches) fs.push(...(await screenFeatures(store, b, UNIVERSE, index)));
          expect(reduceFunnel(fs, { limit: 12, index }).summary.total_scanned).toBe(n);
        },
      ],
    ];
    const runs = n > 1000 ? 3 : 5;
    // Ballast on and off alternately (it is regenerated: the funnel never holds bar objects).
    for (let round = 0; round < 2 * runs; round++) {
      const withBallast = round % 2 === 0;
      const before = (await workerdProcess(bindings.BENCH_COLLECTOR_URL)).rssMb;
      ballast = withBallast ? (ballast ?? benchUniverse(5300, BARS).bars) : null;
      const held = (await workerdProcess(bindings.BENCH_COLLECTOR_URL)).rssMb;
      for (const [name, fn] of stages) add(name, withBallast, n, await span(fn));
      const after = (await workerdProcess(bindings.BENCH_COLLECTOR_URL)).rssMb;
      if (round < 2)
        lines.push(
          `${n} round ${round}: workerd RSS ${before?.toFixed(0)} → ${held?.toFixed(0)} MiB (bar objects ${withBallast ? "made" : "dropped"}) → ${after?.toFixed(0)} after the stages`,
        );
    }
    const sorted = reads.sort((a, b) => a - b);
    lines.push(
      `${n}: one freshness read, wall: median ${median(sorted).toFixed(1)} ms, p90 ${sorted[Math.floor(0.9 * sorted.length)]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)} (${sorted.length} reads)`,
    );
    const s = reduceFunnel(features, { limit: 12, index }).summary;
    lines.push(`${n}: L1 ${s.layer1_passed} L2 ${s.layer2_passed} L4 ${s.layer4_passed}`);
  }
  ballast = null;
  for (const [key, f] of figures) {
    const { stage, alive, n } = f;
    const what = `${STAGES[stage] ?? stage}; ${n} symbols × ${BARS} bars, warm snapshot, ${alive ? "with" : "without"} the bench's 5,300 × ${BARS} bar objects alive`;
    lines.push(
      `${key}: wall ${median(f.wall).toFixed(0)} cpu ${median(f.cpu).toFixed(0)} (event loop ${median(f.main).toFixed(0)})`,
    );
    await report({
      id: `funnel_stage_${key}_ms`,
      name: `funnel stage ${stage}, ${n} symbols${alive ? ", bar objects alive" : ""} (workerd, wall)`,
      ...timing(f.wall),
      unit: "ms",
      timed: `wall: ${what}; then one SELECT 1`,
    });
    if (f.cpu.some((x) => Number.isFinite(x)))
      await report({
        id: `funnel_stage_${key}_cpu_ms`,
        name: `funnel stage ${stage}, ${n} symbols${alive ? ", bar objects alive" : ""} (workerd process CPU)`,
        ...timing(f.cpu),
        unit: "ms",
        timed: `on-CPU time of the workerd process (all threads, /proc; its event-loop thread alone, which runs the worker and local D1/R2: median ${median(f.main).toFixed(1)} ms, the rest V8's GC/compile helpers) over: ${what}`,
      });
  }
  console.log(lines.join("\n"));
});
