/**
 * Market data inside workerd: the offline bundle loaded into D1 (the same builder `npm start` uses),
 * the /api/market routes and their bad-input answers, and the live provider chain against the fake
 * upstream: fall-through on resets and garbage, `data: null`, Yahoo 429, stale cache, corporate
 * actions, 100-row snapshot pages, and `000001` read as Ping An Bank vs the SSE Composite.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import type { MarketBarsResponse, MarketSearchResponse } from "../../worker/contracts/market";
import { createMarketData } from "../../worker/market/create-market-data";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import type { RealCnFile } from "../../worker/market/offline/real-cn";
import type { ToolContext, ToolDeps } from "../../worker/tools/deps";
import { analyzeStockHandler } from "../../worker/tools/handlers/analyze-stock";
import { portfolioHandler } from "../../worker/tools/handlers/portfolio";
import { analyzeStockSpec } from "../../worker/tools/specs/analyze-stock";
import { portfolioSpec } from "../../worker/tools/specs/portfolio";
import { REAL_CN_FILES } from "./real-cn-files";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import {
  clistRow,
  eastmoneyKline,
  makeBars,
  tencentKline,
  yahooChart,
  YAHOO_429_BODY,
} from "../support/fake-upstream/formats";
import type { Fixture, RecordedUpstreamRequest } from "../support/fake-upstream/server";
import { testEnv } from "./test-env";

const BASE = "http://wyckoff.test";
const upstream = inject("upstreamUrl");
const cache = new D1MarketCache(createDb(testEnv.DB));

function call(path: string): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`));
}

/** The app with MARKET_DATA=live (same bindings otherwise). */
function callLive(path: string): Promise<Response> {
  return Promise.resolve(createApp().request(`${BASE}${path}`, {}, { ...testEnv, MARKET_DATA: "live" }));
}

async function fixtures(...list: Fixture[]): Promise<void> {
  const res = await fetch(`${upstream}/__fixtures`, { method: "POST", body: JSON.stringify(list) });
  expect(res.status).toBe(204);
}

async function requests(pathPart: string): Promise<RecordedUpstreamRequest[]> {
  const all = (await (await fetch(`${upstream}/__requests`)).json()) as RecordedUpstreamRequest[];
  // Exact paths: the market-sync test serves its own market under a `/sync` prefix on the same upstream.
  return all.filter((r) => r.path === pathPart);
}

async function errorOf(res: Response): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  return ((await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

const EM_KLINE = "/push2his/api/qt/stock/kline/get";
const TX_KLINE = "/ifzq/appstock/app/fqkline/get";

beforeAll(async () => {
  const realCn = REAL_CN_FILES.map((text) => JSON.parse(text) as RealCnFile);
  const bundle = buildOfflineBundle({ sp500Csv, realCn });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series) await cache.putSeries(s);
}, 120_000); // a hang cap for loading ~310 series on a busy machine, not a timing budget

describe("offline bundle through /api/market", () => {
  it("serves a simulated symbol with analysis, flagged simulated", async () => {
    const res = await call("/api/market/bars/SIM.0001?days=30");
    expect(res.status).toBe(200);
    const body = (await res.json()) as MarketBarsResponse;
    expect(body.symbol).toMatchObject({ id: "SIM.0001", market: "SIM", simulated: true });
    expect(body.bars).toHaveLength(30);
    expect(body.provenance).toMatchObject({ source: "offline", simulated: true, volumeUnit: "shares" });
    expect(body.provenance.notes.join(" ")).toMatch(/simulated/i);
    expect(body.analysis?.symbol).toBe("SIM.0001");
    expect(body.analysis?.asOf).toBe(body.bars.at(-1)?.date);
  });

  it("has ≥ 320 trading days for every simulated symbol and two indices", async () => {
    const sims = await cache.listSymbols("SIM");
    expect(sims.filter((s) => s.kind === "stock").length).toBeGreaterThanOrEqual(200);
    expect(sims.filter((s) => s.kind === "index").map((s) => s.id)).toEqual(["SIM.IDX1", "SIM.IDX2"]);
    const series = await cache.getSeriesMany(["SIM.0001", "SIM.0150", "SIM.IDX1"]);
    for (const s of series) expect(s.bars.length).toBeGreaterThanOrEqual(320);
  });

  it("serves the real S&P 500 series, labelled as bundled history", async () => {
    const res = await call("/api/market/bars/sp500?days=300");
    const body = (await res.json()) as MarketBarsResponse;
    expect(body.symbol.id).toBe("US.SPX");
    expect(body.bars.at(-1)).toMatchObject({ date: "2020-04-17", close: 2874.56 });
    expect(body.provenance).toMatchObject({ simulated: false, stale: true, currency: "USD" });
    expect(body.analysis?.phase.name).toBeTruthy();
  });

  it("finds simulated symbols by code, name and pinyin", async () => {
    const sim = await cache.getSymbol("SIM.0007");
    if (!sim) throw new Error("bundle not loaded");
    for (const q of ["SIM.0007", sim.name, sim.pinyin]) {
      const res = await call(`/api/market/search?q=${encodeURIComponent(q)}`);
      const body = (await res.json()) as MarketSearchResponse;
      expect(body.results.map((r) => r.id)).toContain("SIM.0007");
    }
  });

  it("answers a real code with no bundled data with a not-found that says what the bundle holds, in both languages", async () => {
    const res = await call("/api/market/bars/600519");
    expect(res.status).toBe(404);
    const e = await errorOf(res);
    expect(e.message).toContain("No offline data for SH.600519");
    expect(e.message).toContain("SIM.0001");
    expect(e.message).toContain("SH.600000");
    const messages = e.details?.messages as { zh: string; en: string };
    expect(messages.en).toBe(e.message);
    expect(messages.zh).toContain("离线模式下没有 SH.600519");
    expect(messages.zh).toContain("上证指数 SH.000001");
    const aapl = await errorOf(await call("/api/market/bars/AAPL"));
    expect(aapl.message).toContain("US.AAPL");
    expect(aapl.details?.explore).toContain("SH.000001");
  });

  it("serves the real SSE Composite by its Chinese name: unadjusted bundled history, bad rows cleaned, analysed", async () => {
    const res = await call(`/api/market/bars/${encodeURIComponent("上证指数")}?days=5000`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as MarketBarsResponse;
    expect(body.symbol).toMatchObject({
      id: "SH.000001",
      kind: "index",
      name: "上证指数",
      simulated: false,
      market: "CN",
    });
    expect(body.bars.at(-1)?.date).toBe("2024-09-19");
    expect(body.provenance).toMatchObject({ source: "offline", simulated: false, stale: true, adjust: "none" });
    expect(body.provenance.notes.join(" ")).toMatch(/hqchart.*Unadjusted/);
    expect(body.analysis?.symbol).toBe("SH.000001");
    const whole = await cache.getSeries("SH.000001");
    expect(whole?.bars).toHaveLength(8146); // 8,162 rows, 16 invalid ones dropped at build time
    for (const b of whole?.bars ?? [])
      expect(b.high >= Math.max(b.open, b.close) && b.low <= Math.min(b.open, b.close)).toBe(true);
  });

  it("serves 600000 (浦发银行), 399006 (ChiNext) and 000001 (Ping An Bank; the SSE Composite as an index) from the bundle", async () => {
    const spdb = (await (await call("/api/market/bars/600000?days=300")).json()) as MarketBarsResponse;
    expect(spdb.symbol).toMatchObject({
      id: "SH.600000",
      name: "浦发银行",
      kind: "stock",
      board: "main",
      industry: "银行",
    });
    expect(spdb.bars).toHaveLength(300);
    expect(spdb.analysis?.phase.name).toBeTruthy();
    const chinext = (await (await call("/api/market/bars/399006?days=300")).json()) as MarketBarsResponse;
    expect(chinext.symbol).toMatchObject({ id: "SZ.399006", name: "创业板指", kind: "index" });
    const bank = (await (await call("/api/market/bars/000001?days=10")).json()) as MarketBarsResponse;
    expect(bank.symbol).toMatchObject({ id: "SZ.000001", name: "平安银行", kind: "stock" });
    const index = (await (await call("/api/market/bars/000001?days=10&kind=index")).json()) as MarketBarsResponse;
    expect(index.symbol.id).toBe("SH.000001");
    for (const q of ["Ping An Bank", "创业板指", "PFYH", "SSE Composite"]) {
      const r = (await (await call(`/api/market/bars/${encodeURIComponent(q)}?days=5`)).json()) as MarketBarsResponse;
      expect(r.symbol.simulated, q).toBe(false);
    }
  });

  it.each([
    ["/api/market/bars/SIM.0001?days=abc", 400, "days"],
    ["/api/market/bars/SIM.0001?days=0", 400, "days"],
    ["/api/market/bars/SIM.0001?days=99999", 400, "days"],
    ["/api/market/bars/SIM.0001?days=2.5", 400, "days"],
    ["/api/market/bars/SIM.0001?kind=bond", 400, "kind"],
    [`/api/market/bars/${"x".repeat(41)}`, 400, "symbol"],
    ["/api/market/search", 400, "q"],
    ["/api/market/search?q=", 400, "q"],
    [`/api/market/search?q=${"y".repeat(41)}`, 400, "q"],
    ["/api/market/search?q=SIM&limit=0", 400, "limit"],
  ])("%s → %i naming %s", async (path, status, field) => {
    const res = await call(path);
    expect(res.status).toBe(status);
    const e = await errorOf(res);
    expect(e.code).toBe("invalid_input");
    expect(e.details?.field).toBe(field);
  });

  it.each(["SH.600000", "SIM.0002"])(
    "gives %s one health score and grade in the chat card, the chart page and the portfolio check",
    async (id) => {
      const market = createMarketData({
        db: testEnv.DB,
        config: { marketData: "offline", providers: { eastmoney: upstream, tencent: upstream, yahoo: upstream } },
        fetch: (...a) => fetch(...a),
      });
      const ctx: ToolContext = {
        sessionId: "",
        userId: "u_health",
        toolCallId: "c",
        signal: new AbortController().signal,
      };
      const chart = (await (await call(`/api/market/bars/${id}?days=60`)).json()) as MarketBarsResponse;
      const card = await analyzeStockHandler(analyzeStockSpec.input.parse({ code: id }), { market } as ToolDeps, ctx);
      const position = { code: id, name: id, shares: 100, cost: 5, buyDate: null, stop: null, updatedAt: "" };
      const portfolio = {
        read: async () => ({ freeCash: 0, positionCount: 1, positions: [position], updatedAt: null }),
      };
      const check = await portfolioHandler(
        portfolioSpec.input.parse({ mode: "diagnose" }),
        { market, portfolio } as unknown as ToolDeps,
        ctx,
      );
      if (!card.ok || !check.ok) throw new Error("tool failed");
      const holding = (
        check.value as { diagnostics: { healthScore?: number; healthGrade?: string; latestDate?: string }[] }
      ).diagnostics[0];
      const health = chart.analysis?.health;
      expect(health).toBeDefined();
      expect(card.value.analysis?.asOf).toBe(chart.analysis?.asOf);
      expect(holding?.latestDate).toBe(chart.analysis?.asOf);
      expect(card.value.analysis?.health.score).toBe(health?.score);
      expect(card.value.analysis?.health.grade).toBe(health?.grade);
      expect(card.value.analysis?.health.reasons).toEqual(health?.reasons);
      expect(holding?.healthScore).toBe(health?.score);
      expect(holding?.healthGrade).toBe(health?.grade);
      // the benchmark is part of the inputs everywhere: the chart's analysis has relative strength too
      expect(chart.analysis?.indicators.rs10).toEqual(expect.any(Number));
      expect(chart.analysis?.indicators.mansfield).toEqual(card.value.analysis?.indicators.mansfield);
    },
  );

  it("answers 404 for an unknown simulated code and for a name nothing matches", async () => {
    expect((await call("/api/market/bars/SIM.9999")).status).toBe(404);
    expect((await call(`/api/market/bars/${encodeURIComponent("不存在的公司")}`)).status).toBe(404);
  });

  it("answers an ambiguous name with candidates (400), never a guess", async () => {
    const res = await call(`/api/market/bars/${encodeURIComponent("华")}`);
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(Array.isArray(e.details?.candidates)).toBe(true);
    expect((e.details?.candidates as unknown[] | undefined)?.length).toBeGreaterThan(1);
  });
});

describe("whole-market read from the store", () => {
  it("seriesOfMarket with lastBars equals the full read's last bars, a corrupt newest chunk read past", async () => {
    const full = await cache.seriesOfMarket("SIM", 0);
    expect(full.length).toBeGreaterThan(100);
    const lastYear = (id: string) =>
      Number(
        full
          .find((s) => s.symbolId === id)
          ?.bars.at(-1)
          ?.date.slice(0, 4),
      );
    const check = async (k: number, expected: typeof full) => {
      const tail = await cache.seriesOfMarket("SIM", 0, k);
      expect(tail.map((s) => s.symbolId)).toEqual(expected.map((s) => s.symbolId));
      tail.forEach((s, i) => expect(s, s.symbolId).toEqual({ ...expected[i], bars: expected[i]?.bars.slice(-k) }));
    };
    // 40 bars sit in the newest year's chunk; 300 need the year before (the second read); 5,000 all of them.
    for (const k of [1, 40, 300, 5000]) await check(k, full);
    // The newest chunk of one series corrupt: the read skips it, as the full read does.
    const victim = full[3]?.symbolId ?? "";
    const row = await testEnv.DB.prepare(`SELECT bars FROM market_bar_chunks WHERE symbol_id = ?1 AND year = ?2`)
      .bind(victim, lastYear(victim))
      .first<{ bars: string }>();
    expect(row?.bars.startsWith("@2|")).toBe(true);
    const corrupt = `${row?.bars.slice(0, 60)}~${row?.bars.slice(61)}`;
    const set = (bars: string) =>
      testEnv.DB.prepare(`UPDATE market_bar_chunks SET bars = ?3 WHERE symbol_id = ?1 AND year = ?2`)
        .bind(victim, lastYear(victim), bars)
        .run();
    await set(corrupt);
    try {
      const broken = await cache.seriesOfMarket("SIM", 0);
      expect(
        broken
          .find((s) => s.symbolId === victim)
          ?.bars.at(-1)
          ?.date.slice(0, 4),
      ).toBe(String(lastYear(victim) - 1));
      for (const k of [40, 300]) await check(k, broken);
    } finally {
      await set(row?.bars ?? "");
    }
  });
});

describe("live provider chain against the fake upstream", () => {
  it("takes Eastmoney first, writes through to D1, and serves the cache next time", async () => {
    await fixtures({
      path: EM_KLINE,
      query: "secid=1.600100",
      body: eastmoneyKline("600100", 1, "同方股份", makeBars(300, "2026-06-30")),
    });
    const first = (await (await callLive("/api/market/bars/600100?days=100")).json()) as MarketBarsResponse;
    expect(first.provenance).toMatchObject({ source: "eastmoney", adjust: "qfq", stale: false });
    expect(first.symbol.name).toBe("同方股份");
    expect(first.bars).toHaveLength(100);
    expect(first.bars[0]?.volume).toBeGreaterThan(999_999); // lots → shares
    const second = (await (await callLive("/api/market/bars/600100?days=100")).json()) as MarketBarsResponse;
    expect(second.provenance).toMatchObject({ source: "cache", origin: "eastmoney" });
  });

  it("falls through to Tencent when Eastmoney resets the connection", async () => {
    await fixtures(
      { path: EM_KLINE, query: "secid=1.600200", body: "", fault: "reset" },
      { path: TX_KLINE, query: "sh600200", body: tencentKline("sh600200", makeBars(120, "2026-06-30", 20)) },
    );
    const res = await callLive("/api/market/bars/600200?days=60");
    expect(res.status).toBe(200);
    const body = (await res.json()) as MarketBarsResponse;
    expect(body.provenance.source).toBe("tencent");
    expect(body.provenance.attempts[0]).toMatchObject({ source: "eastmoney", outcome: "failed" });
    expect((await requests(EM_KLINE)).filter((r) => r.query.includes("secid=1.600200"))).toHaveLength(2); // one retry
  });

  it("skips a provider returning garbage and tries the next", async () => {
    await fixtures(
      { path: EM_KLINE, query: "secid=0.002300", body: "<html>访问过于频繁</html>", contentType: "text/html" },
      { path: TX_KLINE, query: "sz002300", body: tencentKline("sz002300", makeBars(80, "2026-06-30", 8)) },
    );
    const body = (await (await callLive("/api/market/bars/002300?days=50")).json()) as MarketBarsResponse;
    expect(body.provenance.source).toBe("tencent");
    expect(body.provenance.attempts[0]?.message).toMatch(/not JSON/);
  });

  it("says not found when every provider says so (Eastmoney data: null)", async () => {
    await fixtures({ path: EM_KLINE, query: "secid=1.600999", body: eastmoneyKline("600999", 1, "", null) });
    const res = await callLive("/api/market/bars/600999");
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toMatch(/No provider knows SH.600999/);
  });

  it("maps Yahoo 429 with nothing cached to a 502 the model can relay", async () => {
    await fixtures({ path: "/v8/finance/chart/ZZZQ", status: 429, body: YAHOO_429_BODY, contentType: "text/plain" });
    const res = await callLive("/api/market/bars/US.ZZZQ");
    expect(res.status).toBe(502);
    const e = await errorOf(res);
    expect(e.code).toBe("upstream_unavailable");
    expect(JSON.stringify(e.details)).toContain("429");
  });

  it("serves US symbols from Yahoo", async () => {
    await fixtures({ path: "/v8/finance/chart/MSFT", body: yahooChart("MSFT", makeBars(260, "2026-06-30", 300)) });
    const body = (await (await callLive("/api/market/bars/MSFT?days=200")).json()) as MarketBarsResponse;
    expect(body.provenance).toMatchObject({ source: "yahoo", currency: "USD" });
    expect(body.bars).toHaveLength(200);
  });

  it("serves the cached series labelled stale when every provider is down", async () => {
    const bars = makeBars(200, "2026-05-29", 12);
    await cache.upsertSymbols(
      [
        {
          id: "SZ.300300",
          market: "CN",
          exchange: "SZ",
          code: "300300",
          name: "海峡创新",
          pinyin: "HXCX",
          kind: "stock",
          board: "chinext",
          industry: null,
          status: "listed",
          currency: "CNY",
          simulated: false,
        },
      ],
      0,
    );
    await cache.putSeries({
      symbolId: "SZ.300300",
      bars,
      adjust: "qfq",
      origin: "eastmoney",
      fetchedAt: Date.parse("2026-05-29T08:00:00Z"),
      simulated: false,
    });
    await fixtures(
      { path: EM_KLINE, query: "secid=0.300300", status: 503, body: "busy" },
      { path: TX_KLINE, query: "sz300300", status: 502, body: "bad gateway" },
    );
    const res = await callLive("/api/market/bars/300300?days=100");
    expect(res.status).toBe(200);
    const body = (await res.json()) as MarketBarsResponse;
    expect(body.provenance).toMatchObject({ source: "cache", stale: true, asOf: "2026-05-29" });
    expect(body.provenance.notes.join(" ")).toMatch(/providers failed/);
  });

  it("appends new bars incrementally, and refetches history on a corporate action", async () => {
    const bars = makeBars(300, "2026-06-30", 30);
    const old = bars.slice(0, 280);
    const seed = {
      symbolId: "SH.601601",
      bars: old,
      adjust: "qfq" as const,
      origin: "eastmoney" as const,
      fetchedAt: 0,
      simulated: false,
    };
    await cache.putSeries(seed);
    const lastOld = old.at(-1)?.date ?? "";
    // Overlap matches: only the new bars are appended.
    await fixtures({
      path: EM_KLINE,
      query: `secid=1.601601`,
      times: 1,
      body: eastmoneyKline("601601", 1, "中国太保", bars.slice(279)),
    });
    const inc = (await (await callLive("/api/market/bars/601601?days=300")).json()) as MarketBarsResponse;
    expect(inc.bars).toHaveLength(300);
    expect(
      (await requests(EM_KLINE)).some(
        (r) => r.query.includes("secid=1.601601") && r.query.includes(`beg=${lastOld.replaceAll("-", "")}`),
      ),
    ).toBe(true);
    // A dividend re-adjusts history: the overlap close differs → full refetch.
    await cache.putSeries({ ...seed, bars: bars.slice(0, 299), fetchedAt: 0 });
    const adjusted = bars.map((b) => ({
      ...b,
      open: b.open * 0.95,
      high: b.high * 0.95,
      low: b.low * 0.95,
      close: Math.round(b.close * 95) / 100,
    }));
    await fixtures(
      {
        path: EM_KLINE,
        query: "secid=1.601601&",
        times: 1,
        body: eastmoneyKline("601601", 1, "中国太保", adjusted.slice(298)),
      },
      { path: EM_KLINE, query: "secid=1.601601&", times: 1, body: eastmoneyKline("601601", 1, "中国太保", adjusted) },
    );
    const re = (await (await callLive("/api/market/bars/601601?days=300")).json()) as MarketBarsResponse;
    expect(re.provenance.notes.join(" ")).toMatch(/corporate action/);
    expect(re.bars[0]?.close).toBeCloseTo(adjusted[0]?.close ?? 0, 2);
  });

  it("reads 1.000001 as the SSE Composite and 000001 as Ping An Bank", async () => {
    await fixtures(
      {
        path: EM_KLINE,
        query: "secid=1.000001",
        body: eastmoneyKline("000001", 1, "上证指数", makeBars(120, "2026-06-30", 3300)),
      },
      {
        path: EM_KLINE,
        query: "secid=0.000001",
        body: eastmoneyKline("000001", 0, "平安银行", makeBars(120, "2026-06-30", 11)),
      },
    );
    const index = (await (await callLive("/api/market/bars/1.000001?days=10")).json()) as MarketBarsResponse;
    expect(index.symbol).toMatchObject({ id: "SH.000001", kind: "index", name: "上证指数" });
    const bank = (await (await callLive("/api/market/bars/000001?days=10")).json()) as MarketBarsResponse;
    expect(bank.symbol).toMatchObject({ id: "SZ.000001", kind: "stock", name: "平安银行" });
    const asIndex = (await (await callLive("/api/market/bars/000001?days=10&kind=index")).json()) as MarketBarsResponse;
    expect(asIndex.symbol.id).toBe("SH.000001");
  });

  it("pages the whole-market snapshot at 100 rows and refreshes the universe", async () => {
    const rows = Array.from({ length: 250 }, (_, i) =>
      clistRow(String(603000 + i), 1, `测试${i}`, 10 + i / 10, i % 2 ? 1 : -1),
    );
    await fixtures({ path: "/push2/api/qt/clist/get", body: null, clistRows: rows });
    const market = createMarketData({
      db: testEnv.DB,
      config: { marketData: "live", providers: { eastmoney: upstream, tencent: upstream, yahoo: upstream } },
      fetch: (...a) => fetch(...a),
    });
    const snap = await market.snapshot("CN");
    if (!snap.ok) throw new Error(snap.error.message);
    expect(snap.value.rows).toHaveLength(250);
    expect(snap.value.complete).toBe(true);
    expect((await requests("/push2/api/qt/clist/get")).length).toBeGreaterThanOrEqual(3);
    expect((await cache.getSymbol("SH.603123"))?.name).toBe("测试123");
  });
});

describe("market tools through the runtime (scripted model, offline bundle)", () => {
  it("calls each market tool in one round and gets real results from the bundle", async () => {
    const { newSession, script, sendAndRead, chunksOf, modelRequests } = await import("./turn-helpers");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      {
        toolCalls: [
          { name: "search_stock_by_name", arguments: { keyword: "SIM.0001" } },
          { name: "analyze_stock", arguments: { code: "SIM.0001" } },
          { name: "analyze_stock", arguments: { code: "US.SPX", mode: "price", days: 5 } },
          { name: "get_market_overview", arguments: {} },
          { name: "get_market_history", arguments: { index: "SIM.IDX1", days: 30 } },
          { name: "market_regime", arguments: { market: "sim" } },
          { name: "intraday_analysis", arguments: { code: "SIM.0001" } },
        ],
      },
      { text: "Summary of the simulated market." },
    ]);
    const { frames } = await sendAndRead(id, `overview please ${key}`);
    const chunks = chunksOf(frames);
    const inputs = chunks.filter((c) => c.type === "tool-input-available") as {
      toolCallId: string;
      toolName: string;
    }[];
    const outputs = new Map(
      (
        chunks.filter((c) => c.type === "tool-output-available") as {
          toolCallId: string;
          output: Record<string, unknown>;
        }[]
      ).map((c) => [c.toolCallId, c.output]),
    );
    const errors = chunks.filter((c) => c.type === "tool-output-error");
    expect(errors).toEqual([]);
    expect(inputs).toHaveLength(7);
    const byTool = (name: string) => inputs.filter((i) => i.toolName === name).map((i) => outputs.get(i.toolCallId));
    expect(byTool("search_stock_by_name")[0]).toMatchObject({ count: expect.any(Number) });
    const [diagnose, price] = byTool("analyze_stock");
    expect(diagnose).toMatchObject({
      mode: "diagnose",
      symbol: { id: "SIM.0001", simulated: true },
      source: { source: "offline", simulated: true },
    });
    expect((diagnose?.analysis as { phase?: { name: string } } | undefined)?.phase?.name).toEqual(expect.any(String));
    expect(price).toMatchObject({ mode: "price", symbol: { id: "US.SPX" }, latestDate: "2020-04-17" });
    expect((price?.data as unknown[] | undefined)?.length).toBe(5);
    expect(byTool("get_market_history")[0]).toMatchObject({ source: { simulated: true } });
    expect(byTool("market_regime")[0]).toMatchObject({ source: expect.any(Object) });
    expect(byTool("intraday_analysis")[0]).toMatchObject({ symbol: { id: "SIM.0001" } });
    expect(byTool("get_market_overview")[0]).toMatchObject({ source: expect.any(Object) });
    // The model got every result back, in one tool message.
    const tool = (await modelRequests(key))[1]?.body.messages.filter((m) => m.role === "tool");
    expect(tool).toHaveLength(7);
  }, 60_000); // a hang cap: seven tools over the bundle in workerd on a shared machine
});

describe("market tools through the runtime against the live providers (fake upstream)", () => {
  it("analyze_stock fetches from Eastmoney's format through the real adapters inside a turn", async () => {
    const { runHarnessTurn, fakeToolDeps } = await import("../support/runtime-harness");
    const { createModels } = await import("../../worker/runtime/model");
    const { loadConfig } = await import("../../worker/config");
    await fixtures({
      path: EM_KLINE,
      query: "secid=1.600888",
      body: eastmoneyKline("600888", 1, "测试钢铁", makeBars(320, "2026-06-30")),
    });
    const config = loadConfig({ ...testEnv, MARKET_DATA: "live" });
    const market = createMarketData({ db: testEnv.DB, config, fetch: (...a) => fetch(...a) });
    const key = "[live-tool-1]";
    const control = testEnv.LLM_BASE_URL.replace(/\/v1$/, "");
    await fetch(`${control}/__script`, {
      method: "POST",
      body: JSON.stringify({
        key,
        responses: [{ toolCalls: [{ name: "analyze_stock", arguments: { code: "600888" } }] }, { text: "done" }],
      }),
    });
    const run = await runHarnessTurn({
      models: createModels(
        { baseURL: testEnv.LLM_BASE_URL, apiKey: testEnv.LLM_API_KEY, model: "scripted" },
        undefined,
      ),
      text: `分析 600888 ${key}`,
      toolDeps: { ...fakeToolDeps(), market } as never,
    });
    expect(run.result.status).toBe("done");
    const output = (
      run.chunks.find((c) => c.type === "tool-output-available") as { output: Record<string, unknown> } | undefined
    )?.output;
    expect(output).toMatchObject({
      mode: "diagnose",
      symbol: { name: "测试钢铁" },
      source: { source: "eastmoney", simulated: false },
    });
    expect((await requests("/push2his/api/qt/stock/kline/get")).some((r) => r.query.includes("secid=1.600888"))).toBe(
      true,
    );
  });
});
