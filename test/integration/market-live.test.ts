/**
 * The live market provider chain inside workerd against the fake upstream: fall-through on resets and
 * garbage, `data: null`, Yahoo 429, stale cache, corporate actions, 100-row snapshot pages, `000001`
 * read as Ping An Bank vs the SSE Composite, and analyze_stock through the real adapters in a turn.
 * (One file: its tests count the upstream's requests on the same paths, so they must not run in parallel.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MarketBarsResponse } from "../../worker/contracts/market";
import { createMarketData } from "../../worker/market/create-market-data";
import {
  clistRow,
  eastmoneyKline,
  makeBars,
  tencentKline,
  yahooChart,
  YAHOO_429_BODY,
} from "../support/fake-upstream/formats";
import { testEnv } from "./test-env";
import {
  cache,
  callLive,
  EM_KLINE,
  errorOf,
  fixtures,
  requests,
  seedBundle,
  TX_KLINE,
  upstream,
} from "./market-helpers";
beforeAll(seedBundle, 120_000); // a hang cap for loading ~310 series on a busy machine, not a timing budget
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
