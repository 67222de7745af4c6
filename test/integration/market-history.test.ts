/**
 * A reading of history through the chart route (`?end=`) and `analyze_stock` (`asOf`), on the offline
 * bundle's real series: the bars and the analysis as the market stood at that close.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MarketBarsResponse } from "../../worker/contracts/market";
import { analyze } from "../../worker/engine/analyze";
import { createMarketData } from "../../worker/market/create-market-data";
import type { ToolContext, ToolDeps } from "../../worker/tools/deps";
import { analyzeStockHandler } from "../../worker/tools/handlers/analyze-stock";
import { analyzeStockSpec } from "../../worker/tools/specs/analyze-stock";
import { testEnv } from "./test-env";
import { cache, call, errorOf, seedBundle, upstream } from "./market-helpers";

beforeAll(seedBundle, 120_000); // a hang cap for loading the bundle on a busy machine, not a timing budget

describe("history as it stood, from the offline bundle", () => {
  it("reads history as it stood: bars and analysis up to ?end= / asOf, one reading for the chart and the card, a bad or too-early date a clear 4xx", async () => {
    const res = await call("/api/market/bars/399006?days=120&end=2015-06-30");
    expect(res.status).toBe(200);
    const past = (await res.json()) as MarketBarsResponse;
    expect(past.bars).toHaveLength(120);
    expect(past.bars.at(-1)?.date).toBe("2015-06-30");
    expect(past.provenance.asOf).toBe("2015-06-30");
    expect(past.analysis?.asOf).toBe("2015-06-30");
    // Point in time: the reading at 2015-06-30 is the one of the series cut there (nothing after it read).
    const whole = await cache.getSeries("SZ.399006");
    const cut = (whole?.bars ?? []).filter((b) => b.date <= "2015-06-30");
    const analysis = analyze(cut.slice(-500), { symbol: "SZ.399006", market: "CN" });
    if (!analysis.ok) throw new Error(analysis.error.message);
    expect(past.analysis?.phase).toEqual(analysis.value.phase);
    expect(past.analysis?.events).toEqual(analysis.value.events);
    // A weekend or holiday: the last bar on or before it.
    const sunday = (await (await call("/api/market/bars/399006?days=5&end=2015-06-28")).json()) as MarketBarsResponse;
    expect(sunday.bars.at(-1)?.date).toBe("2015-06-26");
    const market = createMarketData({
      db: testEnv.DB,
      config: { marketData: "offline", providers: { eastmoney: upstream, tencent: upstream, yahoo: upstream } },
      fetch: (...a) => fetch(...a),
    });
    const ctx: ToolContext = { sessionId: "", userId: "u_past", toolCallId: "c", signal: new AbortController().signal };
    const card = await analyzeStockHandler(
      analyzeStockSpec.input.parse({ code: "创业板指", asOf: "2015-06-30" }),
      { market } as ToolDeps,
      ctx,
    );
    if (!card.ok) throw new Error(card.error.message);
    expect(card.value).toMatchObject({ asOf: "2015-06-30", latestDate: "2015-06-30" });
    expect(card.value.analysis?.phase).toEqual(past.analysis?.phase);
    expect(card.value.analysis?.health).toEqual(past.analysis?.health); // benchmark read up to the same date
    // Bad input changes nothing and says what is wrong.
    const bad = await call("/api/market/bars/399006?end=2015-02-30");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^end: /);
    const early = await call("/api/market/bars/399006?end=2009-12-31");
    expect(early.status).toBe(404);
    expect((await errorOf(early)).message).toMatch(/history here starts 2010-06-01/);
    const tool = await analyzeStockHandler(
      analyzeStockSpec.input.parse({ code: "399006", asOf: "2009-12-31" }),
      { market } as ToolDeps,
      ctx,
    );
    expect(tool.ok).toBe(false);
    expect(analyzeStockSpec.input.safeParse({ code: "399006", asOf: "2015-6-30" }).success).toBe(false);
  });
});
