/**
 * The whole-market snapshot inside workerd with real D1 and R2: built from the stored chunks, it
 * serves the same columns, bar series and funnel as the chunks do; any write to the store after it
 * (a refetch, a daily append, a new symbol) makes readers take the chunks until the next build; a
 * build whose store moved meanwhile publishes nothing; a rebuild at the same generation writes the
 * same object; a missing or corrupt object falls back to the chunks.
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
import { forgetLoadedSnapshots, MarketSnapshots } from "../../worker/storage/market-snapshot-repo";
import { D1SyncStore } from "../../worker/storage/market-sync-repo";
import { fakeBars, fakeStocks, type FakeMarketSpec } from "../support/fake-upstream/fake-market";
import { testEnv } from "./test-env";

const SPEC: FakeMarketSpec = { symbols: 150, seed: 5, start: "2025-06-02", day: "2026-11-25" };
const UNIVERSE: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };
const db = createDb(testEnv.DB);
const chunks = new D1MarketCache(db);
const snapshots = new MarketSnapshots(testEnv.DB, testEnv.SPILLS);
const viaSnapshot = new D1MarketCache(db, snapshots);
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
});
