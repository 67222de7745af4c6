/**
 * Market sync benchmark inside workerd (real D1) against the fake upstream's whole market: the first
 * sync (list pass + one K-line fetch per symbol) at two sizes, and the daily incremental run (one list
 * pass appending every symbol's bar) at three sizes up to the whole market, with queue messages, provider
 * requests, stored rows and bytes, and the screening funnel over the store each daily run leaves
 * (issue 16: ≤ 2 s at the whole market). Reported through the collector, never asserted (the sync's
 * behaviour is tested in test/integration/market-sync.test.ts). The US universe: the bundled S&P 500
 * list resolved through the fake Yahoo, first and next-day runs (test/integration/market-sync-us.test.ts).
 * The funnel spans run the worker's code as shipped (bundled by esbuild, `?shipped`: see
 * bench/workers/market.bench.ts); the sync runs the source modules.
 */
import { env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import { syncQueueDriver } from "../../test/integration/market-sync-driver";
import {
  fakeBars,
  fakeStocks,
  type FakeMarketSpec,
  type FakeUsSpec,
} from "../../test/support/fake-upstream/fake-market";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { D1SyncStore } from "../../worker/storage/market-sync-repo";
import { boardFilter, universeFor } from "../../worker/background/universe";
import type * as sourceCache from "../../worker/storage/market-cache-repo";
import { median, timing, type Metric } from "../support/record";
import { workerdCpuMs } from "./market-fill";
import { shipped } from "./shipped-bundle";

const bindings = env as typeof env & { BENCH_COLLECTOR_URL: string };
const upstream = inject("upstreamUrl");

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

/** Each size syncs its own market under its own path prefix, so sizes do not meet. */
function liveEnv(prefix: string): Env {
  return {
    ...env,
    MARKET_DATA: "live",
    EASTMONEY_BASE_URL: `${upstream}/${prefix}`,
    TENCENT_BASE_URL: `${upstream}/none`,
    YAHOO_BASE_URL: `${upstream}/none`,
  } as unknown as Env;
}

/** Workerd process CPU of a funnel figure's runs (the collector's /proc read around each run). */
/** Each CPU figure's median per symbol at the first size reported (for `growth`). */
const firstCpuPerSymbol = new Map<string, { n: number; perSymbol: number }>();

async function reportCpu(id: string, name: string, n: number, cpu: readonly number[]): Promise<void> {
  if (cpu.length === 0) return;
  const base = firstCpuPerSymbol.get(id);
  if (!base) firstCpuPerSymbol.set(id, { n, perSymbol: median(cpu) / n });
  await report({
    id: `${id}_${n}_cpu_ms`,
    name: `${name}, ${n} symbols (workerd process CPU)`,
    ...timing(cpu),
    unit: "ms",
    ...(n === 5300 ? { goal: 2000 } : {}),
    ...(base ? { growth: { ratio: median(cpu) / n / base.perSymbol, vs: `${base.n}, per symbol` } } : {}),
    timed: `on-CPU time of every workerd thread (the worker's JS and GC, local D1 and R2; /proc schedstat read by the collector before and after) over each run of ${id}_${n}_ms`,
  });
}

async function serve(prefix: string, spec: FakeMarketSpec): Promise<void> {
  const list = [
    { path: `/${prefix}/push2/api/qt/clist/get`, body: null, market: spec, first: true },
    { path: `/${prefix}/push2his/api/qt/stock/kline/get`, body: null, market: spec, first: true },
  ];
  await fetch(`${upstream}/__fixtures`, { method: "POST", body: JSON.stringify(list) });
}

async function storedBytes(): Promise<{ rows: number; bytes: number }> {
  const r = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM market_bar_chunks) + (SELECT count(*) FROM market_series) + (SELECT count(*) FROM market_symbols) AS rows,
            (SELECT coalesce(sum(length(bars)), 0) FROM market_bar_chunks) AS bytes`,
  ).first<{ rows: number; bytes: number }>();
  return { rows: r?.rows ?? 0, bytes: r?.bytes ?? 0 };
}

async function runSync(e: Env): Promise<{ ms: number; messages: number }> {
  const q = syncQueueDriver(e);
  q.send({ kind: "sync.start", market: "CN" });
  const t0 = performance.now();
  await q.drain();
  return { ms: performance.now() - t0, messages: q.sent() + 1 };
}

/** Sizes of the daily run and of issue 16's funnel over the store it leaves (growth against the first). */
const FUNNEL_SIZES = [200, 1000, 5300] as const;

const spec = (symbols: number, day: string): FakeMarketSpec => ({ symbols, seed: 3, start: "2025-07-01", day });

it("first sync at two sizes (list pass + one K-line fetch per symbol)", async () => {
  for (const n of [300, 1200]) {
    const prefix = `first${n}`;
    await env.DB.exec(
      "DELETE FROM market_bar_chunks; DELETE FROM market_series; DELETE FROM market_symbols; DELETE FROM market_sync_runs; DELETE FROM market_sync_batches;",
    );
    await serve(prefix, spec(n, "2026-11-25"));
    const { ms, messages } = await runSync(liveEnv(prefix));
    const run = await new D1SyncStore(env.DB).latestRun("CN");
    expect(run?.status).toBe("done");
    const stored = await storedBytes();
    await report({
      id: `market_sync_first_${n}_ms`,
      name: `first sync, ${n} symbols: wall (fake upstream, workerd)`,
      value: Math.round(ms),
      unit: "ms",
    });
    await report({
      id: `market_sync_first_${n}_ms_per_symbol`,
      name: `first sync, ${n} symbols: per symbol`,
      value: Math.round((ms / n) * 100) / 100,
      unit: "ms",
    });
    await report({
      id: `market_sync_first_${n}_messages`,
      name: `first sync, ${n} symbols: queue messages`,
      value: messages,
      unit: "messages",
    });
    await report({
      id: `market_sync_first_${n}_requests`,
      name: `first sync, ${n} symbols: provider requests`,
      value: run?.requests ?? 0,
      unit: "requests",
    });
    await report({
      id: `market_sync_first_${n}_d1_rows`,
      name: `first sync, ${n} symbols: D1 rows stored`,
      value: stored.rows,
      unit: "rows",
    });
    await report({
      id: `market_sync_bytes_per_symbol`,
      name: "stored bars per symbol (≈ 350 daily bars, D1)",
      value: Math.round(stored.bytes / n),
      unit: "bytes",
    });
  }
}, 1_800_000);

it("daily incremental sync at three sizes (one list pass appends every bar), then the funnel over the store", async () => {
  const funnelTimes = new Map<number, number[]>();
  const snapshotTimes = new Map<number, number[]>();
  for (const n of FUNNEL_SIZES) {
    const prefix = `daily${n}`;
    await env.DB.exec(
      "DELETE FROM market_bar_chunks; DELETE FROM market_series; DELETE FROM market_symbols; DELETE FROM market_sync_runs; DELETE FROM market_sync_batches;",
    );
    // Yesterday's store, written directly (the first sync's cost is measured above).
    const day0 = spec(n, "2026-11-25");
    const cache = new D1MarketCache(createDb(env.DB));
    const stocks = fakeStocks(day0);
    await cache.upsertSymbols(
      stocks.map((s) => ({
        id: s.id,
        market: "CN" as const,
        exchange: s.id.slice(0, 2) as "SH" | "SZ" | "BJ",
        code: s.code,
        name: s.name,
        pinyin: "",
        kind: "stock" as const,
        board: s.board,
        industry: s.industry,
        status: "listed" as const,
        currency: "CNY" as const,
        simulated: false,
      })),
      0,
    );
    const writes: Promise<void>[] = [];
    for (const s of stocks) {
      writes.push(
        cache.putSeries({
          symbolId: s.id,
          bars: fakeBars(day0, s.id),
          adjust: "qfq",
          origin: "eastmoney",
          fetchedAt: 0,
          simulated: false,
        }),
      );
      if (writes.length >= 25) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    await serve(prefix, { ...day0, day: "2026-11-26" });
    const { ms, messages } = await runSync(liveEnv(prefix));
    const run = await new D1SyncStore(env.DB).latestRun("CN");
    expect(run?.appended).toBe(n);
    await report({
      id: `market_sync_daily_${n}_ms`,
      name: `daily sync, ${n} symbols: wall (one list pass, workerd)`,
      value: Math.round(ms),
      unit: "ms",
      ...(n === 5300 ? { goal: 60_000 } : {}),
    });
    await report({
      id: `market_sync_daily_${n}_messages`,
      name: `daily sync, ${n} symbols: queue messages`,
      value: messages,
      unit: "messages",
    });
    await report({
      id: `market_sync_daily_${n}_requests`,
      name: `daily sync, ${n} symbols: provider requests`,
      value: run?.requests ?? 0,
      unit: "requests",
    });
    // Issue 16's figure: the whole funnel over the store the sync just brought up to date — the live
    // universe's listed stocks (board filter "all"), read per batch of 100 as the fan-out batches do.
    const u = universeFor("live", "cn");
    let listed = 0;
    const cpuOf = new Map<number[], number[]>();
    const funnelOver = async (store: sourceCache.D1MarketCache, before?: () => void): Promise<number[]> => {
      const times: number[] = [];
      const cpu: number[] = [];
      cpuOf.set(times, cpu);
      let scanned = 0;
      for (let r = 0; r < 3; r++) {
        before?.();
        const c0 = await workerdCpuMs(bindings.BENCH_COLLECTOR_URL);
        const t0 = performance.now();
        const symbols = boardFilter(await store.listSymbols(u.code, "stock"), "all");
        const index = (await store.getSeries(u.index))?.bars ?? [];
        const features = [];
        for (let i = 0; i < symbols.length; i += 100)
          features.push(
            ...(await shipped.screenFeatures(
              store,
              symbols.slice(i, i + 100).map((x) => ({ id: x.id, name: x.name, industry: x.industry, board: x.board })),
              u,
              index,
            )),
          );
        scanned = shipped.reduceFunnel(features, { limit: 12, index }).summary.total_scanned;
        listed = symbols.length;
        await env.DB.prepare("SELECT 1").first(); // workerd's clock moves on I/O
        times.push(performance.now() - t0);
        const c1 = await workerdCpuMs(bindings.BENCH_COLLECTOR_URL);
        if (c0 !== null && c1 !== null) cpu.push(c1 - c0);
      }
      expect(scanned).toBe(listed);
      return times;
    };
    const times = await funnelOver(new shipped.D1MarketCache(shipped.createDb(env.DB)));
    funnelTimes.set(n, times);
    const base = FUNNEL_SIZES[0];
    const perSymbol = (k: number) => median(funnelTimes.get(k) ?? []) / k;
    await report({
      id: `funnel_synced_store_${n}_ms`,
      name: `screening funnel over the synced store, ${n} symbols (workerd, wall)`,
      ...timing(times),
      unit: "ms",
      ...(n === 5300 ? { goal: 2000 } : {}),
      ...(n > base ? { growth: { ratio: perSymbol(n) / perSymbol(base), vs: `${base}, per symbol` } } : {}),
      timed: `wall in workerd after the daily sync, the worker's code bundled as shipped: listSymbols + board filter (${listed} listed), the index series, per batch of 100 one getColumnsMany read + decode + screenFeatures, reduceFunnel, one SELECT 1`,
    });
    await reportCpu("funnel_synced_store", "screening funnel over the synced store", n, cpuOf.get(times) ?? []);
    // The same funnel through the whole-market snapshot the sync's finish step built (issue 21): each
    // run starts cold (the isolate's parsed copy dropped), so the R2 read and decode are inside.
    const snapshot = await env.DB.prepare(
      "SELECT built_generation = generation AS current FROM market_snapshots WHERE market = 'CN'",
    ).first<{ current: number }>();
    expect(snapshot?.current).toBe(1);
    const viaSnapshot = new shipped.D1MarketCache(
      shipped.createDb(env.DB),
      new shipped.MarketSnapshots(env.DB, env.SPILLS),
    );
    const snapTimes = await funnelOver(viaSnapshot, shipped.forgetLoadedSnapshots);
    snapshotTimes.set(n, snapTimes);
    const perSymbolSnap = (k: number) => median(snapshotTimes.get(k) ?? []) / k;
    await report({
      id: `funnel_synced_snapshot_${n}_ms`,
      name: `screening funnel over the synced store through its snapshot, ${n} symbols (workerd, wall)`,
      ...timing(snapTimes),
      unit: "ms",
      ...(n === 5300 ? { goal: 2000 } : {}),
      ...(n > base ? { growth: { ratio: perSymbolSnap(n) / perSymbolSnap(base), vs: `${base}, per symbol` } } : {}),
      timed: `as funnel_synced_store, with the store's current whole-market snapshot (built by the sync's finish step) read cold from R2 on each of 3 runs`,
    });
    await reportCpu(
      "funnel_synced_snapshot",
      "screening funnel over the synced store through its snapshot",
      n,
      cpuOf.get(snapTimes) ?? [],
    );
  }
}, 1_800_000);

it("US universe: the bundled S&P 500 list resolved through Yahoo, then the next day's incremental run", async () => {
  const prefix = "us500";
  await env.DB.exec(
    "DELETE FROM market_bar_chunks; DELETE FROM market_series; DELETE FROM market_symbols; DELETE FROM market_sync_runs; DELETE FROM market_sync_batches; DELETE FROM market_sync_failures;",
  );
  const e = { ...liveEnv("none"), YAHOO_BASE_URL: `${upstream}/${prefix}` } as unknown as Env;
  const store = new D1SyncStore(env.DB);
  for (const [phase, day] of [
    ["first", "2026-11-25"],
    ["daily", "2026-11-26"],
  ] as const) {
    const chart = { path: `/${prefix}/v8/finance/chart/`, body: null, first: true };
    const usMarket: FakeUsSpec = { seed: 9, start: "2025-07-01", day };
    await fetch(`${upstream}/__fixtures`, { method: "POST", body: JSON.stringify([{ ...chart, usMarket }]) });
    const q = syncQueueDriver(e);
    q.send({ kind: "sync.start", market: "US" });
    const t0 = performance.now();
    await q.drain();
    const ms = performance.now() - t0;
    const run = await store.latestRun("US");
    expect(run?.status).toBe("done");
    expect(run?.failed).toBe(0);
    const n = run?.universe ?? 0;
    await report({
      id: `market_sync_us_${phase}_ms`,
      name: `US ${phase} sync, ${n} symbols (bundled S&P 500, fake Yahoo): wall`,
      value: Math.round(ms),
      unit: "ms",
    });
    await report({
      id: `market_sync_us_${phase}_requests`,
      name: `US ${phase} sync, ${n} symbols: provider requests`,
      value: run?.requests ?? 0,
      unit: "requests",
    });
    await report({
      id: `market_sync_us_${phase}_messages`,
      name: `US ${phase} sync, ${n} symbols: queue messages`,
      value: q.sent() + 1,
      unit: "messages",
    });
  }
  const storage = await store.storage("US");
  await report({
    id: "market_sync_us_bytes_per_symbol",
    name: "US stored bars per symbol (Yahoo 5y range, D1)",
    value: Math.round(storage.bytes / Math.max(1, storage.symbols)),
    unit: "bytes",
  });
}, 1_800_000);
