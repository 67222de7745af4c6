/**
 * The offline bundle's real A-share part and its seed SQL: the committed extracts become symbol rows in
 * the universe's id scheme and cleaned bars (invalid rows dropped and counted), and the seed packs
 * them into few statements, each under D1's 100 KB statement limit, that still hold every bar.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeBarChunk } from "../../../worker/lib/bar-chunks";
import { buildOfflineBundle } from "../../../worker/market/offline/bundle";
import { noMatch, offlineMiss } from "../../../worker/market/offline/holdings";
import { parseRealCnRows, REAL_CN, type RealCnFile } from "../../../worker/market/offline/real-cn";
import { bundleSql } from "../../../worker/market/offline/seed-sql";
import { localizedMessage } from "../../../worker/runtime/tool-executor";

const root = path.resolve(import.meta.dirname, "../../..");
const dir = path.join(root, "data/real/cn");
const files = readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as RealCnFile);
const csv = readFileSync(path.join(root, "node_modules/vega-datasets/data/sp500-2000.csv"), "utf8");
const small = { seed: 7, stocks: 20, days: 330, endDate: "2026-06-30" };

describe("real A-share series in the offline bundle", () => {
  const bundle = buildOfflineBundle({ sp500Csv: csv, realCn: files, sim: small });

  it("lists every extract as a real symbol with names, kind, board and industry", () => {
    const real = bundle.symbols.filter((s) => s.market === "CN");
    expect(real.map((s) => s.id).sort()).toEqual(REAL_CN.map((m) => m.id).sort());
    for (const s of real) {
      expect(s.simulated).toBe(false);
      expect(s.currency).toBe("CNY");
      expect(s.name).toMatch(/[\u4e00-\u9fff]/);
      expect(s.pinyin).toMatch(/^[A-Z]+$/);
    }
    expect(real.find((s) => s.id === "SH.600000")).toMatchObject({
      kind: "stock",
      board: "main",
      industry: "银行",
      name: "浦发银行",
    });
    expect(real.find((s) => s.id === "SH.000001")).toMatchObject({ kind: "index", board: null, name: "上证指数" });
    expect(bundle.series.filter((s) => !s.simulated).map((s) => s.adjust)).toEqual(Array(9).fill("none"));
  });

  it("drops and counts the invalid OHLC rows (16 in the SSE Composite's 1991–95 rows, 6 in the SZSE Component)", () => {
    const byId = new Map(bundle.cleaning.map((c) => [c.symbolId, c]));
    expect(byId.get("SH.000001")).toEqual({ symbolId: "SH.000001", rows: 8162, bars: 8146, dropped: 16 });
    expect(byId.get("SZ.399001")?.dropped).toBe(6);
    expect(byId.get("SH.600000")).toMatchObject({ dropped: 0, bars: 5908 });
    const invalid = bundle.series.flatMap((s) =>
      s.bars.filter((b) => !(b.high >= Math.max(b.open, b.close) && b.low <= Math.min(b.open, b.close) && b.low > 0)),
    );
    expect(invalid).toEqual([]);
  });

  it("drops rows with bad dates, repeated dates, non-positive or missing prices; keeps amounts", () => {
    const { bars, dropped } = parseRealCnRows([
      [20200102, 10, 10, 11, 9, 10.5, 100, 1000],
      [20200102, 10, 10, 11, 9, 10.5, 100, 1000],
      [20200103, 10, 10, 9, 11, 10.5, 100, 1000],
      [20200106, 10, 0, 11, 9, 10.5, 100, 1000],
      [2020017, 10, 10, 11, 9, 10.5, 100, 1000],
      [20200107, 10, 10, 11, 9],
      [20200108, 10, 10.2, 10.8, 9.9, 10.1, 0, 0],
    ]);
    expect(dropped).toBe(5);
    expect(bars.map((b) => b.date)).toEqual(["2020-01-02", "2020-01-08"]);
    expect(bars[0]?.amount).toBe(1000);
  });

  it("refuses an extract the bundle does not describe", () => {
    const stray = { ...files[0], symbol: "600519.sh" } as RealCnFile;
    expect(() => buildOfflineBundle({ sp500Csv: csv, realCn: [stray], sim: small })).toThrow(/600519\.sh/);
  });
});

describe("seed SQL", () => {
  const bundle = buildOfflineBundle({ sp500Csv: csv, realCn: files, sim: small });
  const sql = bundleSql(bundle);

  it("packs the bundle into few statements, each below D1's 100 KB limit", () => {
    for (const st of sql) expect(new TextEncoder().encode(st).length).toBeLessThan(100_000);
    const chunks = bundle.series.reduce((n, s) => n + new Set(s.bars.map((b) => b.date.slice(0, 4))).size, 0);
    expect(sql.length).toBeLessThan(chunks / 3);
    expect(sql.filter((s) => s.startsWith("DELETE"))).toHaveLength(1);
  });

  it("holds every bar of every series (the chunks decode back to the bundle)", () => {
    const tuples = sql
      .filter((s) => s.startsWith("INSERT OR REPLACE INTO market_bar_chunks"))
      .flatMap((s) => [...s.matchAll(/\('([^']+)', (\d+), '((?:[^']|'')*)'\)/g)]);
    const decoded = new Map<string, number>();
    for (const m of tuples) {
      const bars = decodeBarChunk(String(m[3]).replaceAll("''", "'"));
      decoded.set(String(m[1]), (decoded.get(String(m[1])) ?? 0) + bars.length);
    }
    for (const s of bundle.series) expect(decoded.get(s.symbolId), s.symbolId).toBe(s.bars.length);
    const symbolTuples = sql
      .filter((s) => s.startsWith("INSERT OR REPLACE INTO market_symbols"))
      .reduce((n, s) => n + (s.match(/^\('/gm)?.length ?? 0), 0);
    expect(symbolTuples).toBe(bundle.symbols.length);
  });

  it("is deterministic", () => {
    expect(bundleSql(buildOfflineBundle({ sp500Csv: csv, realCn: files, sim: small }))).toEqual(sql);
  });
});

describe("not_found answers of the offline bundle", () => {
  it("say what the bundle holds, in Chinese and English", () => {
    const miss = offlineMiss("SH.600519", "贵州茅台");
    if (miss.ok) throw new Error("expected an error");
    const m = miss.error.details?.messages as { zh: string; en: string };
    expect(m.en).toContain("No offline data for SH.600519 (贵州茅台)");
    for (const id of REAL_CN.map((x) => x.id)) {
      expect(m.en).toContain(id);
      expect(m.zh).toContain(id);
    }
    expect(m.zh).toContain("上证指数");
    expect(m.en).toContain("SSE Composite");
    const none = noMatch("xyz", true);
    if (none.ok) throw new Error("expected an error");
    expect(localizedMessage(none.error, "zh")).toContain("没有与“xyz”匹配的股票");
    expect(localizedMessage(none.error, "en")).toBe(none.error.message);
    expect(localizedMessage({ message: "plain" }, "zh")).toBe("plain");
  });
});
