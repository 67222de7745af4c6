/**
 * The market tools over the real MarketData service with an in-memory cache holding the offline
 * bundle (the real S&P 500 series + a smaller simulated market), and the live chain with fake
 * providers: fall-through, stale cache, and every result's source block.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Bar } from "../../../worker/contracts/analysis";
import type { SymbolInfo } from "../../../worker/contracts/market";
import { err, ok } from "../../../worker/lib/result";
import { createMarketDataService } from "../../../worker/market/service/market-data-service";
import { buildOfflineBundle } from "../../../worker/market/offline/bundle";
import type { MarketData, MarketDataProvider } from "../../../worker/ports/market-data";
import type { ToolContext, ToolDeps } from "../../../worker/tools/deps";
import { intradayMetrics } from "../../../worker/tools/handlers/intraday-analysis";
import type { ToolHandler } from "../../../worker/tools/bind";
import { analyzeStockHandler } from "../../../worker/tools/handlers/analyze-stock";
import { getMarketHistoryHandler } from "../../../worker/tools/handlers/get-market-history";
import { getMarketOverviewHandler } from "../../../worker/tools/handlers/get-market-overview";
import { intradayAnalysisHandler } from "../../../worker/tools/handlers/intraday-analysis";
import { marketRegimeHandler } from "../../../worker/tools/handlers/market-regime";
import { searchStockByNameHandler } from "../../../worker/tools/handlers/search-stock-by-name";
import { findTool } from "../../../worker/tools/registry";
import { analyzeStockSpec } from "../../../worker/tools/specs/analyze-stock";
import type { ToolInput, ToolSpec } from "../../../worker/tools/specs/define";
import { getMarketHistorySpec } from "../../../worker/tools/specs/get-market-history";
import { getMarketOverviewSpec } from "../../../worker/tools/specs/get-market-overview";
import { intradayAnalysisSpec } from "../../../worker/tools/specs/intraday-analysis";
import { marketRegimeSpec } from "../../../worker/tools/specs/market-regime";
import { searchStockByNameSpec } from "../../../worker/tools/specs/search-stock-by-name";
import { createMemoryCache, type MemoryCache } from "../../support/market/memory-cache";

const csv = readFileSync(
  path.resolve(import.meta.dirname, "../../../node_modules/vega-datasets/data/sp500-2000.csv"),
  "utf8",
);
const NOW = Date.parse("2026-07-01T08:00:00Z");
const ctx: ToolContext = { sessionId: "s_test", userId: "u", toolCallId: "c1", signal: new AbortController().signal };

let cache: MemoryCache;
let offline: MarketData;

function deps(market: MarketData): ToolDeps {
  return { clock: () => NOW, market } as unknown as ToolDeps;
}

/** A registered market tool, callable with raw input (parsed by its spec, as the runtime does). */
function tool<S extends ToolSpec>(spec: S, handler: ToolHandler<S>) {
  expect(findTool(spec.name)?.spec).toBe(spec); // registered for the model too
  return (input: unknown, market: MarketData = offline) =>
    handler(spec.input.parse(input) as ToolInput<S>, deps(market), ctx);
}

const search = tool(searchStockByNameSpec, searchStockByNameHandler);
const analyzeStock = tool(analyzeStockSpec, analyzeStockHandler);
const history = tool(getMarketHistorySpec, getMarketHistoryHandler);
const overview = tool(getMarketOverviewSpec, getMarketOverviewHandler);
const regime = tool(marketRegimeSpec, marketRegimeHandler);
const intraday = tool(intradayAnalysisSpec, intradayAnalysisHandler);

beforeAll(() => {
  const bundle = buildOfflineBundle({ sp500Csv: csv, sim: { seed: 7, stocks: 80, days: 330, endDate: "2026-06-30" } });
  cache = createMemoryCache({ symbols: bundle.symbols, series: bundle.series });
  offline = createMarketDataService({
    mode: "offline",
    cache,
    chains: { CN: [], US: [] },
    searchers: [],
    now: () => NOW,
  });
});

describe("search_stock_by_name", () => {
  it("finds a simulated stock by pinyin with its latest close, flagged simulated", async () => {
    const sim = cache.symbols.get("SIM.0003");
    if (!sim) throw new Error("bundle");
    const r = await search({ keyword: sim.pinyin });
    if (!r.ok) throw new Error(r.error.message);
    const hit = r.value.results.find((x: { id: string }) => x.id === "SIM.0003");
    expect(hit).toMatchObject({ simulated: true });
    expect(r.value.results[0]?.latestClose).toBeGreaterThan(0);
    expect(r.value.source.source).toBe("offline");
  });
});

describe("analyze_stock", () => {
  it("diagnoses a simulated stock with the engine, a position and stats, saying it is simulated", async () => {
    const r = await analyzeStock({ code: "SIM.0001", cost: 10 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.analysis?.symbol).toBe("SIM.0001");
    expect(r.value.position?.cost).toBe(10);
    expect(r.value.stats?.ret20dPct).not.toBeNull();
    expect(r.value.source).toMatchObject({ simulated: true, source: "offline" });
    expect(r.value.latestDate).toBe("2026-06-30");
  });

  it("returns price rows with change % in price mode", async () => {
    const r = await analyzeStock({ code: "spx", mode: "price", days: 10 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.data).toHaveLength(10);
    expect(r.value.data?.[9]).toMatchObject({ date: "2020-04-17", close: 2874.56 });
    expect(r.value.data?.[0]?.pctChg).not.toBeNull();
    expect(r.value.source).toMatchObject({ simulated: false, stale: true });
  });

  it("says plainly that a real code has no offline data", async () => {
    const r = await analyzeStock({ code: "600519" });
    expect(r).toMatchObject({ ok: false, error: { code: "not_found" } });
    if (!r.ok) expect(r.error.message).toContain("No offline data for SH.600519");
  });

  it("lists candidates for an ambiguous name", async () => {
    const r = await analyzeStock({ code: "华" });
    expect(r).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    if (!r.ok) expect((r.error.details?.candidates as unknown[] | undefined)?.length).toBeGreaterThan(1);
  });
});

describe("get_market_history", () => {
  it("defaults to the simulated composite offline and summarises the window", async () => {
    const r = await history({ days: 60 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.index.symbol).toBe("SIM.IDX1");
    expect(r.value.rows).toHaveLength(60);
    expect(r.value.summary.upDays + r.value.summary.downDays).toBeLessThanOrEqual(60);
    expect(r.value.summary.maxDrawdownPct).toBeLessThanOrEqual(0);
  });

  it("computes the S&P 500's 2020 drawdown from the real series", async () => {
    const r = await history({ index: "S&P 500", days: 60 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.summary.maxDrawdownPct).toBeLessThan(-30); // Feb–Mar 2020 crash
  });

  it("answers an index with no offline data as not found", async () => {
    const r = await history({ index: "sse" });
    expect(r).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});

describe("market_regime and get_market_overview", () => {
  it("reads the simulated market's regime with breadth", async () => {
    const r = await regime({});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.index.id).toBe("SIM.IDX1");
    expect(r.value.breadth?.symbols).toBeGreaterThanOrEqual(50);
    expect(typeof r.value.blocksNewEntries).toBe("boolean");
    expect(r.value.source.simulated).toBe(true);
  });

  it("reads the S&P 500 regime in March 2020 as risk-off or crash", async () => {
    const spx = cache.series.get("US.SPX");
    if (!spx) throw new Error("bundle");
    const upTo = spx.bars.filter((b) => b.date <= "2020-03-16");
    const c2 = createMemoryCache({ symbols: [...cache.symbols.values()], series: [{ ...spx, bars: upTo }] });
    const m = createMarketDataService({
      mode: "offline",
      cache: c2,
      chains: { CN: [], US: [] },
      searchers: [],
      now: () => NOW,
    });
    const r = await regime({ market: "us" }, m);
    if (!r.ok) throw new Error(r.error.message);
    expect(["RISK_OFF", "CRASH"]).toContain(r.value.state);
  });

  it("gives indices, regime and breadth, and says when real and simulated data are mixed", async () => {
    const r = await overview({});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.indices.map((i: { id: string }) => i.id)).toEqual(["SIM.IDX1", "SIM.IDX2", "US.SPX"]);
    expect(r.value.regime).not.toBeNull();
    expect(r.value.source.notes.join(" ")).toMatch(/Mixed data/);
  });
});

describe("intraday_analysis", () => {
  it("reads a simulated session", async () => {
    const r = await intraday({ code: "SIM.0002", interval: 5 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.bars).toBe(48);
    expect(r.value.vwap).toBeGreaterThanOrEqual(r.value.low);
    expect(r.value.vwap).toBeLessThanOrEqual(r.value.high);
    expect(r.value.strength).toBeGreaterThanOrEqual(0);
    expect(r.value.source.simulated).toBe(true);
  });

  it("has no offline intraday data for real symbols", async () => {
    expect(await intraday({ code: "US.SPX" })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });

  it("scores a steadily rising session as strong and a falling one as weak", () => {
    const mk = (dir: 1 | -1) =>
      Array.from({ length: 60 }, (_, i) => {
        const p = 10 + dir * 0.01 * i;
        return {
          time: `2026-07-01 10:${String(i).padStart(2, "0")}`,
          open: p - dir * 0.005,
          high: p + 0.006,
          low: p - 0.006,
          close: p,
          volume: 1000,
        };
      });
    const up = intradayMetrics(mk(1), 1);
    const down = intradayMetrics(mk(-1), 1);
    expect(up?.trend).toBe("up");
    expect(up?.strength).toBeGreaterThan(70);
    expect(down?.trend).toBe("down");
    expect(down?.strength).toBeLessThan(30);
  });
});

describe("live chain", () => {
  const bars: Bar[] = Array.from({ length: 300 }, (_, i) => {
    const d = new Date(Date.UTC(2025, 3, 1) + i * 86400000).toISOString().slice(0, 10);
    const c = 20 + Math.sin(i / 10);
    return { date: d, open: c, high: c + 0.3, low: c - 0.3, close: c, volume: 1e6 };
  });
  const failing = (name: "eastmoney" | "tencent", code: "upstream_unavailable" | "not_found"): MarketDataProvider => ({
    name,
    supports: (s: SymbolInfo) => s.market === "CN",
    dailyBars: async () => err(code, `${name} down`),
  });
  const answering: MarketDataProvider = {
    name: "tencent",
    supports: (s) => s.market === "CN",
    dailyBars: async () => ok({ bars, adjust: "qfq", name: "测试股份" }),
  };

  it("falls through to the next provider and says which answered", async () => {
    const c = createMemoryCache();
    const live = createMarketDataService({
      mode: "live",
      cache: c,
      chains: { CN: [failing("eastmoney", "upstream_unavailable"), answering], US: [] },
      searchers: [],
      now: () => NOW,
    });
    const r = await analyzeStock({ code: "600001", mode: "price", days: 5 }, live);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.source.source).toBe("tencent");
    expect(r.value.source.attempts.map((a: { source: string; outcome: string }) => `${a.source}:${a.outcome}`)).toEqual(
      ["eastmoney:failed", "tencent:ok"],
    );
    expect(r.value.symbol.name).toBe("测试股份");
    expect(c.series.get("SH.600001")?.bars).toHaveLength(300);
  });

  it("serves the cache labelled stale when every provider fails, and errors when nothing is cached", async () => {
    const c = createMemoryCache();
    await c.putSeries({
      symbolId: "SH.600002",
      bars,
      adjust: "qfq",
      origin: "eastmoney",
      fetchedAt: NOW - 86400000 * 3,
      simulated: false,
    });
    const down = createMarketDataService({
      mode: "live",
      cache: c,
      chains: {
        CN: [failing("eastmoney", "upstream_unavailable"), failing("tencent", "upstream_unavailable")],
        US: [],
      },
      searchers: [],
      now: () => NOW,
    });
    const r = await analyzeStock({ code: "600002", mode: "price", days: 5 }, down);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.source).toMatchObject({ source: "cache", stale: true });
    expect(await analyzeStock({ code: "600003" }, down)).toMatchObject({
      ok: false,
      error: { code: "upstream_unavailable" },
    });
  });
});
