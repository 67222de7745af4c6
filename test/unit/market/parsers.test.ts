/** Provider parsers against recorded responses in each provider's documented format (DOMAIN.md §2). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SymbolInfo } from "../../../worker/contracts/market";
import { parseEastmoneyClist } from "../../../worker/market/parse/eastmoney-clist";
import {
  eastmoneyDailyBars,
  eastmoneyMinuteBars,
  parseEastmoneyKlines,
} from "../../../worker/market/parse/eastmoney-kline";
import { parseEastmoneySearch } from "../../../worker/market/parse/eastmoney-search";
import { inferSymbol } from "../../../worker/market/parse/resolve-symbol";
import { parseTencentKlines } from "../../../worker/market/parse/tencent-kline";
import { decodeGbk, parseTencentQuotes } from "../../../worker/market/parse/tencent-quote";
import { parseTencentSearch } from "../../../worker/market/parse/tencent-search";
import { parseYahooDaily, parseYahooMinutes, yahooSymbol } from "../../../worker/market/parse/yahoo-chart";

const dir = path.resolve(import.meta.dirname, "../../fixtures/upstream");
const text = (f: string): string => readFileSync(path.join(dir, f), "utf8");
const sym = (id: string, kind: "stock" | "index" = "stock"): SymbolInfo => {
  const [exchange = "SH", code = ""] = id.split(".");
  return inferSymbol({ id, exchange: exchange as "SH", code, kind });
};

describe("eastmoney K-lines", () => {
  it("reads open, close, high, low in that order and turns lots into shares", () => {
    const k = parseEastmoneyKlines(text("eastmoney/kline-601360-day.json"));
    expect(k.ok).toBe(true);
    if (!k.ok) return;
    expect(k.value.name).toBe("三六零");
    const bars = eastmoneyDailyBars(k.value);
    expect(bars[1]).toEqual({
      date: "2024-03-01",
      open: 8.68,
      high: 9.55,
      low: 8.63,
      close: 9.55,
      volume: 348_081_100,
      amount: 3_241_300_923,
    });
    // amount ≈ volume × price confirms the unit (DOMAIN.md §2.1)
    const b = bars[1];
    if (b?.amount) expect(b.amount / b.volume).toBeGreaterThan(8.6);
  });

  it("says not_found for data: null", () => {
    const k = parseEastmoneyKlines(text("eastmoney/kline-unknown.json"));
    expect(k).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("rejects garbage as upstream_unavailable (so the chain moves on)", () => {
    expect(parseEastmoneyKlines("<html>blocked</html>")).toMatchObject({
      ok: false,
      error: { code: "upstream_unavailable" },
    });
    expect(
      parseEastmoneyKlines('{"data":{"code":"1","market":1,"name":"x","klines":["2024-01-02,abc"]}}'),
    ).toMatchObject({
      ok: false,
      error: { code: "upstream_unavailable" },
    });
  });

  it("parses minute rows", () => {
    const k = parseEastmoneyKlines(text("eastmoney/kline-600519-1min.json"));
    if (!k.ok) throw new Error("parse failed");
    expect(eastmoneyMinuteBars(k.value)[0]).toEqual({
      time: "2026-07-01 09:31",
      open: 1500,
      high: 1503.5,
      low: 1499,
      close: 1502,
      volume: 42_000,
      amount: 63_050_000,
    });
  });
});

describe("eastmoney clist", () => {
  it("maps field ids, keeps '-' as null, puts f13=1 on SH and 8xxxxx on BJ", () => {
    const r = parseEastmoneyClist(text("eastmoney/clist-page1.json"));
    if (!r.ok) throw new Error("parse failed");
    expect(r.value.total).toBe(5312);
    expect(r.value.rows.map((x) => x.id)).toEqual(["SZ.000001", "SZ.000004", "SH.600519", "BJ.830799"]);
    expect(r.value.rows[0]).toMatchObject({
      name: "平安银行",
      price: 11.32,
      changePct: 1.25,
      volume: 81_234_500,
      prevClose: 11.18,
    });
    expect(r.value.rows[1]).toMatchObject({ price: null, changePct: null, volume: null, prevClose: 5.1 });
  });
});

describe("eastmoney search", () => {
  it("keeps A-shares, indices and US stocks; drops HK", () => {
    const r = parseEastmoneySearch(text("eastmoney/search-maotai.json"));
    if (!r.ok) throw new Error("parse failed");
    expect(r.value.map((s) => [s.id, s.kind, s.pinyin])).toEqual([
      ["SH.600519", "stock", "GZMT"],
      ["SH.000001", "index", "SZZS"],
      ["US.AAPL", "stock", "PG"],
    ]);
  });
});

describe("tencent K-lines", () => {
  it("unwraps the JS variable, reads qfqday positionally and converts stock lots to shares", () => {
    const r = parseTencentKlines(text("tencent/kline-sh600519-qfq.txt"), sym("SH.600519"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.adjust).toBe("qfq");
    expect(r.value.bars[1]).toEqual({
      date: "2026-06-30",
      open: 1500,
      high: 1523,
      low: 1498,
      close: 1520,
      volume: 3_011_200,
    });
  });

  it("keeps index volume as reported (already shares) and records no adjustment", () => {
    const r = parseTencentKlines(text("tencent/kline-sh000001-day.txt"), sym("SH.000001", "index"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.adjust).toBe("none");
    expect(r.value.bars[0]?.volume).toBe(412_345_678);
    expect(r.value.bars[0]?.close).toBe(3410.55);
  });

  it("says not_found when the answer has no rows for the symbol", () => {
    expect(parseTencentKlines('{"code":0,"data":{}}', sym("SH.600000"))).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });
});

describe("tencent quotes (GBK)", () => {
  it("decodes GBK and maps fields; skips the none-match line", () => {
    const bytes = readFileSync(path.join(dir, "tencent/quote-sh600519-gbk.txt"));
    expect(bytes.toString("utf8")).not.toContain("贵州茅台"); // really GBK on disk
    const r = parseTencentQuotes(decodeGbk(bytes));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toHaveLength(1);
    expect(r.value[0]).toMatchObject({
      id: "SH.600519",
      name: "贵州茅台",
      price: 1520,
      prevClose: 1500,
      volume: 3_011_200,
      amount: 4_560_000_000,
      changePct: 1.33,
      time: "2026-06-30 15:00:03",
    });
    expect(r.value[0]?.marketCap).toBeCloseTo(19094.3e8, -3);
  });
});

describe("tencent smartbox", () => {
  it("unescapes names and keeps stocks, indices and US; drops HK", () => {
    const r = parseTencentSearch(text("tencent/smartbox-mixed.txt"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((s) => [s.id, s.name, s.kind])).toEqual([
      ["SH.600519", "贵州茅台", "stock"],
      ["SZ.000001", "平安银行", "stock"],
      ["SH.000001", "上证指数", "index"],
      ["US.AAPL", "苹果", "stock"],
    ]);
    expect(parseTencentSearch('v_hint="N"')).toEqual({ ok: true, value: [] });
  });
});

describe("yahoo chart v8", () => {
  it("uses exchange-local dates, scales OHLC by adjclose and drops null rows", () => {
    const r = parseYahooDaily(text("yahoo/chart-AAPL-2020-08-31.json"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.adjust).toBe("split_dividend");
    expect(r.value.bars).toHaveLength(2);
    const b = r.value.bars[0];
    expect(b?.date).toBe("2020-08-31");
    expect(b?.close).toBeCloseTo(125.83, 2);
    expect(b?.open).toBeCloseTo(127.58 * (125.83 / 129.04), 3);
    expect(b?.volume).toBe(225_702_700);
  });

  it("maps chart.error Not Found to not_found", () => {
    expect(parseYahooDaily(text("yahoo/chart-not-found.json"))).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });

  it("gives minute times in exchange time", () => {
    const r = parseYahooMinutes(text("yahoo/chart-AAPL-2020-08-31.json"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]?.time).toBe("2020-08-31 08:30");
  });

  it("maps symbols to Yahoo tickers", () => {
    expect(yahooSymbol(sym("SH.600519"))).toBe("600519.SS");
    expect(yahooSymbol(sym("SZ.000001"))).toBe("000001.SZ");
    expect(yahooSymbol(inferSymbol({ id: "US.SPX", exchange: "US", code: "SPX", kind: "index" }))).toBe("^GSPC");
    expect(yahooSymbol(sym("BJ.830799"))).toBeNull();
  });
});
