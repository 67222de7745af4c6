/**
 * Market-store benchmarks inside workerd, through real (local) D1 and the D1MarketCache adapter, at
 * 200 / 1,000 / 5,300 symbols × 320 daily bars (the store holds exactly that many at each size):
 *
 * - whole-market cached bars load: `seriesOfMarket` (one statement, every chunk decoded to bars);
 * - the regime's read: `seriesOfMarket` with `lastBars` 40 (what `universeBars(market, 40)` asks —
 *   the newest year's chunk per symbol, earlier ones only for series it does not cover);
 * - the screening funnel from the store: per batch of 100 symbols (as each fan-out batch does) one
 *   `getColumnsMany` read, chunk decode into columns and the map phase (`screenFeatures`: L1, L2
 *   channels, returns, L4 triggers), then the reduce (`reduceFunnel`: RPS, L2 with RPS, L3 sectors,
 *   L4/L5, allocation) over all of them;
 * - the whole-market snapshot (storage/market-snapshot-repo.ts): its build from the chunks, a cold
 *   load (R2 read, gunzip for a gzip object, parse, every series' last 320 bars decoded into columns —
 *   per 500 series, as a consumer takes them), and the same funnel reading through the snapshot
 *   (uncompressed, the default; cold: the isolate's
 *   parsed copy dropped before each run, so each run includes the R2 read; warm: parsed once);
 *   gzip against an uncompressed object, bytes per symbol.
 *
 * Every timed span runs the worker's code as `wrangler deploy` ships it: bundled by esbuild into one module
 * (`?shipped`, bench/workers/vitest.config.ts). Under the test pool every source module runs through
 * Vite's module runner, where each imported binding is a property read on a namespace object — the
 * same funnel is several times slower there; `funnel_snapshot_module_runner` times it that way too.
 *
 * Wall time (workerd gives no CPU clock; its timer advances on I/O, so each timed span ends with an
 * awaited D1 round trip), and beside each figure `<id>_cpu_ms`: the workerd process's on-CPU time
 * over the same span, read by the collector from /proc (bench/support/process-cpu.ts) — on this
 * shared machine wall grows with the load while CPU does not, so judge a goal on both. Median, mean
 * and p90 over the runs; `growth` is the per-symbol cost against 200 symbols (1.00 = flat). No bar
 * objects stay alive in the isolate while spans run. Reported through the collector, never asserted.
 * Where the funnel's time goes, stage by stage: market-stages.bench.ts.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import * as sourceFeatures from "../../worker/background/screen-features";
import type { Universe } from "../../worker/background/universe";
import * as sourceReduce from "../../worker/engine/screen/reduce-funnel";
import * as sourceDb from "../../worker/storage/db";
import * as sourceCache from "../../worker/storage/market-cache-repo";
import * as sourceSnapshots from "../../worker/storage/market-snapshot-repo";
import type { SnapshotCompression } from "../../worker/storage/market-snapshot-repo";
import { benchUniverse, weekdays } from "../support/market-universe";
import { median, timing, type Metric } from "../support/record";
import { fillStore, workerdProcess } from "./market-fill";
import { shipped } from "./shipped-bundle";

const SIZES = [200, 1000, 5300] as const;
const BARS = 320;
/** Days the regime reads of every symbol (read-regime.ts: `universeBars(market, 40)`). */
const REGIME_DAYS = 40;
const bindings = env as typeof env & { BENCH_COLLECTOR_URL: string };
const { screenFeatures, reduceFunnel, createDb, D1MarketCache, MarketSnapshots, forgetLoadedSnapshots } = shipped;

const UNIVERSE: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

/** The workerd process CPU (ms; all threads, and its event-loop thread) of each run behind a wall sample `timed` returned. */
const cpuOf = new WeakMap<number[], { all: number[]; main: number[] }>();

/**
 * Times `fn` `runs` times; each span ends with an awaited D1 round trip (workerd's clock moves on
 * I/O). Around each span the collector also reads the workerd process's CPU (`cpuOf`).
 */
async function timed(runs: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  const cpu = { all: [] as number[], main: [] as number[] };
  for (let r = 0; r < runs; r++) {
    const c0 = await workerdProcess(bindings.BENCH_COLLECTOR_URL);
    const t0 = performance.now();
    await fn();
    await env.DB.prepare("SELECT 1").first();
    out.push(performance.now() - t0);
    const c1 = await workerdProcess(bindings.BENCH_COLLECTOR_URL);
    if (c0.ms !== null && c1.ms !== null) cpu.all.push(c1.ms - c0.ms);
    if (c0.mainMs !== null && c1.mainMs !== null) cpu.main.push(c1.mainMs - c0.mainMs);
  }
  cpuOf.set(out, cpu);
  return out;
}

async function reportSizes(
  id: string,
  name: string,
  timed: string,
  goal: number,
  bySize: Map<number, number[]>,
): Promise<void> {
  const perSymbol = (k: number) => median(bySize.get(k) ?? []) / k;
  for (const n of SIZES)
    await report({
      id: `${id}_${n}_ms`,
      name: `${name}, ${n} symbols × ${BARS} bars (D1, workerd, wall)`,
      ...timing(bySize.get(n) ?? []),
      unit: "ms",
      ...(n === 5300 ? { goal } : {}),
      ...(n > SIZES[0] ? { growth: { ratio: perSymbol(n) / perSymbol(SIZES[0]), vs: `${SIZES[0]}, per symbol` } } : {}),
      timed: `wall in workerd over local D1 with ${n} symbols stored: ${timed}, then one SELECT 1 (the clock moves on I/O)`,
    });
  // The same spans' CPU: the workerd process's on-CPU time (all its threads: the worker's JS and GC,
  // local D1 and R2), read by the collector from /proc around each span — what wall hides under load.
  const cpu = (k: number) => cpuOf.get(bySize.get(k) ?? [])?.all ?? [];
  const mainCpu = (k: number) => cpuOf.get(bySize.get(k) ?? [])?.main ?? [];
  const cpuPerSymbol = (k: number) => median(cpu(k)) / k;
  for (const n of SIZES)
    if (cpu(n).length > 0)
      await report({
        id: `${id}_${n}_cpu_ms`,
        name: `${name}, ${n} symbols × ${BARS} bars (D1, workerd process CPU)`,
        ...timing(cpu(n)),
        unit: "ms",
        ...(n === 5300 ? { goal } : {}),
        ...(n > SIZES[0]
          ? { growth: { ratio: cpuPerSymbol(n) / cpuPerSymbol(SIZES[0]), vs: `${SIZES[0]}, per symbol` } }
          : {}),
        timed: `on-CPU time of every workerd thread (/proc schedstat, read by the collector before and after) over the span of ${id}_${n}_ms; its event-loop thread alone (the worker and local D1/R2; the rest is V8's GC/compile helpers): median ${median(mainCpu(n)).toFixed(1)} ms`,
      });
}

it(`cached bars load and the funnel from the store at ${SIZES.join(" / ")} symbols`, async () => {
  const cache = new D1MarketCache(createDb(env.DB));
  // Only the symbol list and the index stay referenced: each size's bars are generated for its fill
  // and dropped, so no bar objects sit in the isolate while the spans run (the same seed gives the
  // same first symbols at every size).
  const u = { symbols: benchUniverse(5300, 0).symbols, index: benchUniverse(1, BARS).index };
  const fromYear = Number(weekdays(BARS)[0]?.slice(0, 4));
  const loads = new Map<number, number[]>();
  const funnels = new Map<number, number[]>();
  const regime = new Map<number, number[]>();
  const snapLoads = new Map<SnapshotCompression, Map<number, number[]>>([
    ["gzip", new Map()],
    ["none", new Map()],
  ]);
  const snapFunnels = new Map<number, number[]>();
  const snapFunnelsWarm = new Map<number, number[]>();
  const snapFunnelsSource = new Map<number, number[]>();
  const builds = new Map<number, number[]>();
  const sizes = new Map<string, number>();
  for (const n of SIZES) {
    await fillStore(benchUniverse(n, BARS), n);
    const runs = n > 1000 ? 3 : 5;
    let read = 0;
    loads.set(
      n,
      await timed(runs, async () => {
        const series = await cache.seriesOfMarket("CN", fromYear);
        read = series.reduce((k, s) => k + s.bars.length, 0);
      }),
    );
    expect(read).toBe(n * BARS);
    regime.set(
      n,
      await timed(runs, async () => {
        const series = await cache.seriesOfMarket("CN", fromYear, REGIME_DAYS);
        read = series.reduce((k, s) => k + s.bars.length, 0);
      }),
    );
    expect(read).toBe(n * REGIME_DAYS);
    const symbols = u.symbols.slice(0, n);
    let scanned = 0;
    funnels.set(
      n,
      await timed(runs, async () => {
        const features = [];
        for (let i = 0; i < symbols.length; i += 100)
          features.push(...(await screenFeatures(cache, symbols.slice(i, i + 100), UNIVERSE, u.index)));
        scanned = reduceFunnel(features, { limit: 12, index: u.index }).summary.total_scanned;
      }),
    );
    expect(scanned).toBe(n);

    const text = await env.DB.prepare("SELECT sum(length(bars)) AS b FROM market_bar_chunks").first<{ b: number }>();
    sizes.set(`chunks_${n}`, text?.b ?? 0);
    // The snapshot: built from the chunks (gzip, then uncompressed — the default), loaded cold, the
    // funnel through the default one.
    for (const compression of ["gzip", "none"] as const) {
      const snapshots = new MarketSnapshots(env.DB, env.SPILLS, { compression });
      const viaSnapshot = new D1MarketCache(createDb(env.DB), snapshots);
      let built = 0;
      const buildTimes = await timed(1, async () => {
        const b = await viaSnapshot.rebuildSnapshot("CN", null, 0);
        expect(b?.published).toBe(true);
        built = b?.bytes ?? 0;
        sizes.set(`raw_${n}`, b?.rawBytes ?? 0);
      });
      sizes.set(`${compression}_${n}`, built);
      if (compression === "none") builds.set(n, buildTimes);
      let loadedBars = 0;
      snapLoads.get(compression)?.set(
        n,
        await timed(runs, async () => {
          forgetLoadedSnapshots();
          const snap = await snapshots.current("CN");
          const ids = snap?.ids ?? [];
          loadedBars = 0;
          for (let i = 0; i < ids.length; i += 500)
            for (const s of snap?.columnsMany(ids.slice(i, i + 500), BARS) ?? []) loadedBars += s.columns.close.length;
        }),
      );
      expect(loadedBars).toBe(n * BARS);
      if (compression !== "none") continue;
      const screen = async () => {
        const features = [];
        for (let i = 0; i < symbols.length; i += 100)
          features.push(...(await screenFeatures(viaSnapshot, symbols.slice(i, i + 100), UNIVERSE, u.index)));
        scanned = reduceFunnel(features, { limit: 12, index: u.index }).summary.total_scanned;
      };
      snapFunnels.set(
        n,
        await timed(runs, async () => {
          forgetLoadedSnapshots();
          await screen();
        }),
      );
      expect(scanned).toBe(n);
      snapFunnelsWarm.set(n, await timed(runs, screen));
      expect(scanned).toBe(n);
      // The same warm funnel with every module as the test pool runs sources (Vite's module runner).
      const sourceStore = new sourceCache.D1MarketCache(
        sourceDb.createDb(env.DB),
        new sourceSnapshots.MarketSnapshots(env.DB, env.SPILLS, { compression }),
      );
      const screenSource = async () => {
        const features = [];
        for (let i = 0; i < symbols.length; i += 100)
          features.push(
            ...(await sourceFeatures.screenFeatures(sourceStore, symbols.slice(i, i + 100), UNIVERSE, u.index)),
          );
        scanned = sourceReduce.reduceFunnel(features, { limit: 12, index: u.index }).summary.total_scanned;
      };
      await screenSource(); // its own parsed snapshot (the source modules' isolate cache), loaded once
      snapFunnelsSource.set(n, await timed(runs, screenSource));
      expect(scanned).toBe(n);
    }
  }
  await reportSizes(
    "market_cached_bars",
    "whole-market cached bars load",
    "one seriesOfMarket call (one statement; every chunk decoded to bar objects)",
    1000,
    loads,
  );
  await reportSizes(
    "market_regime_read",
    "whole-market read of the last 40 bars (the regime's)",
    `one seriesOfMarket call with lastBars ${REGIME_DAYS} (the newest year's chunk of every symbol, a second statement for series it does not cover; the last 40 bars decoded to bar objects)`,
    1000,
    regime,
  );
  await reportSizes(
    "funnel_d1",
    "screening funnel from the D1 store",
    "per batch of 100 symbols one getColumnsMany read + decode into columns + screenFeatures, then reduceFunnel (RPS, L2–L5, sectors, allocation) over all",
    500,
    funnels,
  );
  await reportSizes(
    "market_snapshot_load",
    "whole-market load from the snapshot (gzip, R2)",
    `forget the isolate's parsed snapshot, then one D1 read of the snapshot's row, one R2 get, gunzip (DecompressionStream), parse, and every series' last ${BARS} bars decoded into typed-array columns (per 500 series)`,
    1000,
    snapLoads.get("gzip") ?? new Map(),
  );
  await reportSizes(
    "market_snapshot_load_raw",
    "whole-market load from the snapshot (uncompressed, R2)",
    `as market_snapshot_load, the object stored without compression (no gunzip)`,
    1000,
    snapLoads.get("none") ?? new Map(),
  );
  await reportSizes(
    "market_snapshot_build",
    "whole-market snapshot build from the chunks (uncompressed, the default)",
    "chunkSeriesOfMarket (one statement, every chunk decoded into columns) + encode + R2 put + the guarded D1 publish (one run)",
    60_000,
    builds,
  );
  await reportSizes(
    "funnel_snapshot",
    "screening funnel through the whole-market snapshot (cold)",
    "forget the isolate's parsed snapshot, then per batch of 100 symbols getColumnsMany (one D1 freshness read; the first batch also the R2 get of the uncompressed object + parse; columns decoded from the snapshot) + screenFeatures, then reduceFunnel over all",
    500,
    snapFunnels,
  );
  await reportSizes(
    "funnel_snapshot_warm",
    "screening funnel through the whole-market snapshot (warm: parsed copy in the isolate)",
    "as funnel_snapshot without dropping the isolate's parsed snapshot (each batch: one D1 freshness read + decode from the snapshot + screenFeatures), then reduceFunnel",
    500,
    snapFunnelsWarm,
  );
  await reportSizes(
    "funnel_snapshot_module_runner",
    "screening funnel through the snapshot (warm), source modules under the test pool's module runner",
    "as funnel_snapshot_warm, every module as the test pool runs sources (Vite's module runner: each imported binding read off a namespace object) instead of the shipped bundle — the harness's overhead, not the product's",
    500,
    snapFunnelsSource,
  );
  for (const n of SIZES) {
    const ratio = median(snapFunnelsSource.get(n) ?? []) / Math.max(1e-9, median(snapFunnelsWarm.get(n) ?? []));
    await report({
      id: `funnel_module_runner_ratio_${n}`,
      name: `module runner / shipped bundle, warm snapshot funnel, ${n} symbols`,
      value: Math.round(ratio * 100) / 100,
      unit: "x",
      timed: "median funnel_snapshot_module_runner / median funnel_snapshot_warm, same run, same store",
    });
  }
  for (const n of SIZES)
    for (const [kind, label] of [
      ["gzip", "gzip"],
      ["none", "uncompressed"],
    ] as const)
      await report({
        id: `market_snapshot_${kind === "gzip" ? "" : "raw_"}bytes_per_symbol_${n}`,
        name: `whole-market snapshot bytes per symbol (${label}), ${n} symbols × ${BARS} bars`,
        value: Math.round((sizes.get(`${kind}_${n}`) ?? 0) / n),
        unit: "bytes",
        timed: `object size / ${n} (encoded before gzip: ${Math.round((sizes.get(`raw_${n}`) ?? 0) / n)}; the same bars as chunk text in D1: ${Math.round((sizes.get(`chunks_${n}`) ?? 0) / n)})`,
      });
});
