/**
 * The whole-market snapshot inside workerd with real D1 and R2: built from the stored chunks, it
 * serves the same columns, bar series and funnel as the chunks do; a write to the store after it
 * (a refetch, a daily append) sends readers to the chunks for exactly the symbols written, the rest
 * still from the snapshot; a new symbol makes them take the chunks for everything until the next
 * build; a build whose store moved meanwhile publishes nothing; a rebuild at the same generation
 * writes the same object; a missing or corrupt object falls back to the chunks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { screenFeatures } from "../../worker/background/screen-features";
import type { Universe } from "../../worker/background/universe";
import type { Bar } from "../../worker/contracts/analysis";
import type { SymbolInfo } from "../../worker/contracts/market";
import type { BarColumns } from "../../worker/engine/series";
import { reduceFunnel } from "../../worker/engine/screen/reduce-funnel";
import type { CachedColumns } from "../../worker/ports/market-data";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { forgetLoadedSnapshots, MarketSnapshots, servableSql } from "../../worker/storage/market-snapshot-repo";
import { D1SyncStore } from "../../worker/storage/market-sync-repo";
import { fakeBars, fakeStocks, type FakeMarketSpec } from "../support/fake-upstream/fake-market";
import { testEnv } from "./test-env";

const SPEC: FakeMarketSpec = { symbols: 150, seed: 5, start: "2025-06-02", day: "2026-11-25" };
const UNIVERSE: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };
const db = createDb(testEnv.DB);
const chunks = new D1MarketCache(db);
const snapshots = new MarketSnapshots(testEnv.DB, testEnv.SPILLS);
const viaSnapshot = new D1MarketCache(db, snapshots);
/** The ids whose chunks a read fetched from D1 (rows of statements reading market_bar_chunks). */
const chunkReads = new Set<string>();
/** D1 as is, but recording the first column (the symbol id) of every chunk-reading row. */
function spied(real: D1Database): D1Database {
  const wrap = (sql: string, stmt: D1PreparedStatement): D1PreparedStatement =>
    ({
      bind: (...values: unknown[]) => wrap(sql, stmt.bind(...values)),
      first: (col?: string) => (col === undefined ? stmt.first() : stmt.first(col)),
      run: () => stmt.run(),
      all: () => stmt.all(),
      raw: async () => {
        const rows = await stmt.raw<unknown[]>();
        if (sql.includes("market_bar_chunks")) for (const r of rows) chunkReads.add(String(r[0]));
        return rows;
      },
    }) as unknown as D1PreparedStatement;
  return { prepare: (sql: string) => wrap(sql, real.prepare(sql)) } as unknown as D1Database;
}
/** Reads through the snapshot, D1 spied on (reads only). */
const watched = new D1MarketCache(createDb(spied(testEnv.DB)), snapshots);
async function readChunksOf<T>(read: () => Promise<T>): Promise<{ value: T; chunks: string[] }> {
  chunkReads.clear();
  const value = await read();
  return { value, chunks: [...chunkReads].sort() };
}
const stocks = fakeStocks(SPEC);
const ids = stocks.map((s) => s.id);

function symbol(s: (typeof stocks)[number]): SymbolInfo {
  return {
    id: s.id,
    market: "CN",
    exchange: s.id.slice(0, 2) as "SH" | "SZ" | "BJ",
    code: s.code,
    name: s.name,
    pinyin: "",
    kind: "stock",
    board: s.board,
    industry: s.industry,
    status: "listed",
    currency: "CNY",
    simulated: false,
  };
}

async function put(id: string, bars: Bar[]): Promise<void> {
  await chunks.putSeries({ symbolId: id, bars, adjust: "qfq", origin: "eastmoney", fetchedAt: 7, simulated: false });
}

function bits(list: readonly CachedColumns[]): unknown {
  const col = (c: BarColumns) => ({
    date: [...c.date],
    ...Object.fromEntries(
      (["open", "high", "low", "close", "volume", "amount"] as const).map((k) => [
        k,
        [...c[k]].map((v) => (Object.is(v, -0) ? "-0" : String(v))),
      ]),
    ),
  });
  return [...list]
    .sort((a, b) => (a.symbolId < b.symbolId ? -1 : 1))
    .map((s) => ({ id: s.symbolId, ...col(s.columns) }));
}

async function funnel(cache: D1MarketCache) {
  const index = fakeBars(SPEC, "SH.000001");
  const feats = [];
  const batch = stocks.map((s) => ({ id: s.id, name: s.name, industry: s.industry, board: s.board }));
  for (let i = 0; i < batch.length; i += 50)
    feats.push(...(await screenFeatures(cache, batch.slice(i, i + 50), UNIVERSE, index)));
  return JSON.parse(JSON.stringify({ feats, outcome: reduceFunnel(feats, { limit: 12, index }) })) as unknown;
}

async function state() {
  return testEnv.DB.prepare(
    "SELECT generation, built_generation AS built, key FROM market_snapshots WHERE market = 'CN'",
  ).first<{
    generation: number;
    built: number | null;
    key: string | null;
  }>();
}

const rebuild = (runId: string | null = "run_a") => viaSnapshot.rebuildSnapshot("CN", runId, 1000);

beforeAll(async () => {
  await chunks.upsertSymbols(stocks.map(symbol), 0);
  for (const s of stocks) await put(s.id, fakeBars(SPEC, s.id));
});

describe("whole-market snapshot", () => {
  it("serves exactly what the chunks serve: columns, tails, bar series, the funnel", async () => {
    expect(await snapshots.current("CN")).toBeNull();
    const built = await rebuild();
    expect(built).toMatchObject({ published: true, series: stocks.length, asOf: SPEC.day });
    const snap = await snapshots.current("CN");
    expect(snap?.meta).toMatchObject({ market: "CN", asOf: SPEC.day, runId: "run_a", generation: built?.generation });
    expect(snap?.ids.length).toBe(stocks.length);
    // Index not in the snapshot (not a stock): read from the chunks beside the snapshot's series.
    await put("SH.000001", fakeBars(SPEC, "SH.000001"));
    await rebuild();
    const mixed = [...ids.slice(0, 40), "SH.000001", "SZ.999999"];
    expect(bits(await viaSnapshot.getColumnsMany(mixed, 320))).toEqual(bits(await chunks.getColumnsMany(mixed, 320)));
    expect(bits(await viaSnapshot.getColumnsMany(ids))).toEqual(bits(await chunks.getColumnsMany(ids)));
    expect(await viaSnapshot.seriesOfMarket("CN", 2026)).toEqual(await chunks.seriesOfMarket("CN", 2026));
    expect(await viaSnapshot.seriesOfMarket("CN", 2025, 40)).toEqual(await chunks.seriesOfMarket("CN", 2025, 40));
    expect(await viaSnapshot.seriesOfMarket("CN", 2027)).toEqual(await chunks.seriesOfMarket("CN", 2027));
    const got = await funnel(viaSnapshot);
    expect(got).toEqual(await funnel(chunks));
    expect((got as { outcome: { summary: { total_scanned: number } } }).outcome.summary.total_scanned).toBe(
      stocks.length,
    );
  });

  it("is never served once the store moves past it: a refetch, a daily append, a new stock", async () => {
    await rebuild();
    const id = ids[3] ?? "";
    const before = (await viaSnapshot.getColumnsMany([id]))[0]?.columns.close.length ?? 0;
    // A per-symbol refetch after the run (one bar fewer: a corrected history).
    await put(id, fakeBars(SPEC, id).slice(0, -1));
    expect(await snapshots.current("CN")).toBeNull();
    expect((await viaSnapshot.getColumnsMany([id]))[0]?.columns.close.length).toBe(before - 1);
    expect(await viaSnapshot.seriesOfMarket("CN", 2025)).toEqual(await chunks.seriesOfMarket("CN", 2025));
    await rebuild();
    expect((await viaSnapshot.getColumnsMany([id]))[0]?.columns.close.length).toBe(before - 1);
    // The daily list pass appends through the sync store's SQL.
    const other = ids[4] ?? "";
    const last = fakeBars(SPEC, other).at(-1) as Bar;
    const appended = await new D1SyncStore(testEnv.DB).appendBars(
      [{ id: other, bar: { ...last, date: "2026-11-26" } }],
      2000,
    );
    expect(appended).toBe(1);
    expect(await snapshots.current("CN")).toBeNull();
    expect((await viaSnapshot.getColumnsMany([other]))[0]?.columns.date.at(-1)).toBe("2026-11-26");
    await rebuild();
    expect((await snapshots.current("CN"))?.meta.asOf).toBe("2026-11-26");
    // A new stock in the list moves the generation too.
    await chunks.upsertSymbols(
      [{ ...symbol(stocks[0] as (typeof stocks)[number]), id: "SZ.300999", code: "300999" }],
      0,
    );
    expect(await snapshots.current("CN")).toBeNull();
  });

  it("publishes nothing when the store moves during the build; rebuilds at one generation write one object", async () => {
    const first = await rebuild("run_b");
    const again = await rebuild("run_b");
    expect(again).toMatchObject({
      published: true,
      key: first?.key,
      bytes: first?.bytes,
      generation: first?.generation,
    });
    const obj = await testEnv.SPILLS.get(first?.key ?? "");
    expect(obj?.size).toBe(first?.bytes);
    const listed = await testEnv.SPILLS.list({ prefix: "market-snapshots/CN/" });
    expect(listed.objects.map((o) => o.key)).toEqual([first?.key]);
    // A write lands while the build reads the chunks.
    const id = ids[5] ?? "";
    const raced = await snapshots.rebuild(
      "CN",
      "run_c",
      async (m) => {
        const read = await chunks.chunkSeriesOfMarket(m);
        await put(id, fakeBars(SPEC, id).slice(0, -2));
        return read;
      },
      3000,
    );
    expect(raced.published).toBe(false);
    expect(await snapshots.current("CN")).toBeNull();
    const s = await state();
    expect(s?.key).toBe(first?.key);
    expect(s?.built).not.toBe(s?.generation);
    expect((await testEnv.SPILLS.list({ prefix: "market-snapshots/CN/" })).objects.map((o) => o.key)).toEqual([
      first?.key,
    ]);
    expect((await viaSnapshot.getColumnsMany([id]))[0]?.columns.close.length).toBe(fakeBars(SPEC, id).length - 2);
  });

  it("falls back to the chunks when the object is missing or corrupt", async () => {
    const built = await rebuild();
    forgetLoadedSnapshots();
    await testEnv.SPILLS.put(built?.key ?? "", new Uint8Array([1, 2, 3, 4]));
    expect(await snapshots.current("CN")).toBeNull();
    expect(bits(await viaSnapshot.getColumnsMany(ids.slice(0, 20), 320))).toEqual(
      bits(await chunks.getColumnsMany(ids.slice(0, 20), 320)),
    );
    await testEnv.SPILLS.delete(built?.key ?? "");
    forgetLoadedSnapshots();
    expect(await snapshots.current("CN")).toBeNull();
    expect(await viaSnapshot.seriesOfMarket("CN", 2025, 40)).toEqual(await chunks.seriesOfMarket("CN", 2025, 40));
    const back = await rebuild();
    expect(back?.published).toBe(true);
    expect((await snapshots.current("CN"))?.ids.length).toBeGreaterThan(0);
  });

  it("after one symbol's refetch serves every other symbol from the snapshot and that one from its chunks", async () => {
    // The stock added without bars in an earlier test gets them now: written after the build too.
    const late = "SZ.300999";
    const built = await rebuild("run_d");
    expect(built?.published).toBe(true);
    const all = [...ids, late];
    const clean = await readChunksOf(() => watched.getColumnsMany(all, 320));
    expect(clean.chunks).toEqual([]);
    expect(bits(clean.value)).toEqual(bits(await chunks.getColumnsMany(all, 320)));
    // A user's analyze caches one symbol's corrected history (a corporate action: every close moves).
    const id = ids[7] ?? "";
    const fixed = fakeBars(SPEC, id)
      .slice(0, -1)
      .map((b) => ({ ...b, open: b.open * 0.9, high: b.high * 0.9, low: b.low * 0.9, close: b.close * 0.9 }));
    await put(id, fixed);
    await put(late, fakeBars(SPEC, ids[8] ?? "").slice(-300));
    expect(await snapshots.current("CN")).toBeNull();
    const served = await snapshots.serving("CN");
    expect(served?.snap.meta.generation).toBe(built?.generation);
    expect([...(served?.dirty ?? [])].sort()).toEqual([id, late].sort());
    const cols = await readChunksOf(() => watched.getColumnsMany(all, 320));
    expect(cols.chunks).toEqual([id, late].sort());
    expect(bits(cols.value)).toEqual(bits(await chunks.getColumnsMany(all, 320)));
    const mine = cols.value.find((c) => c.symbolId === id)?.columns;
    expect(mine?.close.length).toBe(Math.min(320, fixed.length));
    expect(mine?.close.at(-1)).toBe(fixed.at(-1)?.close);
    for (const [from, last] of [
      [2025, undefined],
      [2026, undefined],
      [2025, 40],
    ] as const) {
      const series = await readChunksOf(() => watched.seriesOfMarket("CN", from, last));
      expect(series.chunks).toEqual([id, late].sort());
      expect(series.value).toEqual(await chunks.seriesOfMarket("CN", from, last));
    }
    const screened = await readChunksOf(() => funnel(watched));
    expect(screened.chunks).toEqual([id]);
    expect(screened.value).toEqual(await funnel(chunks));
    // The next build takes the writes in: nothing dirty, nothing read from the chunks.
    expect((await rebuild("run_e"))?.published).toBe(true);
    expect((await readChunksOf(() => watched.getColumnsMany(all, 320))).chunks).toEqual([]);
  });

  it("reads the written symbols through the (market, generation) index, and a stock list change stales it all", async () => {
    await rebuild("run_f");
    const plan = await testEnv.DB.prepare(`EXPLAIN QUERY PLAN ${servableSql("?1")}`)
      .bind("CN")
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join("\n")).toMatch(
      /SEARCH g USING (COVERING )?INDEX market_symbol_generation_market_gen \(market=\? AND generation>\?\)/,
    );
    // A stock leaves the list: the snapshot's membership is gone, every read takes the chunks.
    await testEnv.DB.prepare("DELETE FROM market_symbols WHERE id = 'SZ.300999'").run();
    expect(await snapshots.serving("CN")).toBeNull();
    const cols = await readChunksOf(() => watched.getColumnsMany(ids));
    expect(cols.chunks).toEqual([...ids].sort());
    expect(bits(cols.value)).toEqual(bits(await chunks.getColumnsMany(ids)));
    const series = await readChunksOf(() => watched.seriesOfMarket("CN", 2025, 40));
    expect(series.chunks.length).toBe(ids.length);
    expect(series.value).toEqual(await chunks.seriesOfMarket("CN", 2025, 40));
    // A stock moving market stales both; the rebuild serves again with nothing dirty.
    await rebuild("run_g");
    expect((await snapshots.serving("CN"))?.dirty.size).toBe(0);
    await testEnv.DB.prepare("UPDATE market_symbols SET kind = 'index' WHERE id = ?1").bind(ids[9]).run();
    expect(await snapshots.serving("CN")).toBeNull();
    await testEnv.DB.prepare("UPDATE market_symbols SET kind = 'stock' WHERE id = ?1").bind(ids[9]).run();
  });
});
