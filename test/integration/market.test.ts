/**
 * Market data inside workerd from the offline bundle loaded into D1 (the same builder `npm start`
 * uses): the /api/market routes and their bad-input answers, the whole-market read from the store, and
 * the market tools through the runtime. The live provider chain: market-live.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MarketBarsResponse, MarketSearchResponse } from "../../worker/contracts/market";
import { createMarketData } from "../../worker/market/create-market-data";
import type { ToolContext, ToolDeps } from "../../worker/tools/deps";
import { analyzeStockHandler } from "../../worker/tools/handlers/analyze-stock";
import { portfolioHandler } from "../../worker/tools/handlers/portfolio";
import { analyzeStockSpec } from "../../worker/tools/specs/analyze-stock";
import { portfolioSpec } from "../../worker/tools/specs/portfolio";
import { weekdays } from "../../bench/support/market-universe";
import type { Bar } from "../../worker/contracts/analysis";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { testEnv } from "./test-env";
import { cache, call, errorOf, seedBundle, upstream } from "./market-helpers";
beforeAll(seedBundle, 120_000); // a hang cap for loading ~310 series on a busy machine, not a timing budget
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

  it("serves the real SSE Composite by its Chinese name: bundled history, bad rows cleaned, analysed", async () => {
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
    // An index has no ex-rights days: its note names the source and says nothing of adjustment.
    expect(body.provenance.notes.join(" ")).toMatch(/index day bars \(hqchart/);
    expect(body.provenance.notes.join(" ")).not.toMatch(/Unadjusted/);
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
    // A stock keeps its ex-rights gaps: the note says it is unadjusted.
    expect(spdb.provenance.notes.join(" ")).toMatch(/hqchart.*Unadjusted/);
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
  it("getColumnsMany with lastBars reads the newest years' chunks, older ones only for a series they leave short", async () => {
    /** Chunk rows each statement reading market_bar_chunks returned. */
    const chunkRows: number[] = [];
    const real = testEnv.DB;
    const spied = {
      prepare: (sql: string) => {
        const wrap = (stmt: D1PreparedStatement): D1PreparedStatement =>
          ({
            bind: (...values: unknown[]) => wrap(stmt.bind(...values)),
            raw: async () => {
              const rows = await stmt.raw<unknown[]>();
              if (sql.includes("market_bar_chunks")) chunkRows.push(rows.length);
              return rows;
            },
          }) as unknown as D1PreparedStatement;
        return wrap(real.prepare(sql));
      },
    } as unknown as D1Database;
    const store = new D1MarketCache(createDb(spied));
    const walk = (dates: readonly string[], seed: number): Bar[] =>
      dates.map((date, i) => {
        const c = 10 + seed + Math.sin(i / 7 + seed) * 2 + i / 100;
        return { date, open: c - 0.05, high: c + 0.1, low: c - 0.1, close: c, volume: 1000 + ((i * 37 + seed) % 500) };
      });
    const days = weekdays(1600, "2019-01-02"); // 2019 to 2025-02
    const series: Record<string, Bar[]> = {
      "TAIL.LONG": walk(days, 1),
      // Suspended from mid-2020 to the last 40 days: the newest years hold fewer than 320 bars.
      "TAIL.SUSPENDED": walk([...days.slice(0, 380), ...days.slice(-40)], 2),
      "TAIL.NEW": walk(days.slice(-150), 3),
    };
    const ids = Object.keys(series);
    for (const [symbolId, bars] of Object.entries(series))
      await cache.putSeries({ symbolId, bars, adjust: "qfq", origin: "eastmoney", fetchedAt: 1, simulated: false });
    const whole = new Map((await cache.getSeriesMany(ids)).map((s) => [s.symbolId, s.bars]));
    for (const k of [1, 40, 320, 700, 5000]) {
      chunkRows.length = 0;
      const got = await store.getColumnsMany([...ids, "TAIL.LONG", "TAIL.MISSING"], k);
      expect(got.map((s) => s.symbolId)).toEqual(ids.toSorted());
      for (const { symbolId, columns: c } of got) {
        const want = (whole.get(symbolId) ?? []).slice(-k);
        expect(c.date, `${symbolId} ${k}`).toEqual(want.map((b) => b.date));
        expect([...c.close], `${symbolId} ${k}`).toEqual(want.map((b) => b.close));
        expect([...c.volume], `${symbolId} ${k}`).toEqual(want.map((b) => b.volume));
      }
      if (k === 320)
        // LONG: 2023–2025 of its 7 chunks; SUSPENDED: 2024–2025 (none in 2023), then 2019–2020 in the
        // second statement; NEW: its 2 chunks.
        expect(chunkRows).toEqual([3 + 2 + 2, 2]);
    }
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
