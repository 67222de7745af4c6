/**
 * The market sync's pure parts: the Eastmoney list parser (industry, ST, listing date, caps, the
 * day's bar, suspended rows without one) and the planner (append only when the stored series ends
 * the trading day before and its last close equals the list's previous close; refetch new, short,
 * gapped, re-adjusted and previously failed series; skip current and suspended ones; batches).
 */
import { describe, expect, it } from "vitest";
import { compactDate, parseEastmoneyUniverse } from "../../../worker/market/parse/eastmoney-universe";
import {
  APPEND_BATCH,
  FETCH_BATCH,
  MIN_SYNC_BARS,
  planBatches,
  planSync,
  previousTradeDate,
  sameClose,
} from "../../../worker/background/market-sync/plan";
import type { SeriesHead, UniverseRow } from "../../../worker/ports/market-sync";

const row = (code: string, over: Partial<UniverseRow> = {}): UniverseRow => ({
  id: `SH.${code}`,
  code,
  exchange: "SH",
  name: `n${code}`,
  board: "main",
  industry: "银行",
  st: false,
  listedOn: null,
  totalCap: null,
  floatCap: null,
  tradeDate: "2026-11-27",
  bar: { date: "2026-11-27", open: 10, high: 10.5, low: 9.9, close: 10.2, volume: 1e6 },
  prevClose: 10,
  ...over,
});
const head = (lastDate: string, lastClose = 10, barCount = 400): SeriesHead => ({ lastDate, lastClose, barCount });

describe("eastmoney list page", () => {
  it("reads industry, ST, listing date, caps and the day's bar; a suspended row has no bar", () => {
    const text = JSON.stringify({
      rc: 0,
      data: {
        total: 3,
        diff: [
          {
            f12: "600519",
            f13: 1,
            f14: "贵州茅台",
            f100: "白酒",
            f26: 20010827,
            f297: 20261127,
            f2: 1500.5,
            f15: 1510,
            f16: 1490,
            f17: 1495,
            f5: 20000,
            f6: 3e9,
            f18: 1490.1,
            f20: 1.9e12,
            f21: 1.9e12,
          },
          {
            f12: "000004",
            f13: 0,
            f14: "*ST国华",
            f100: "-",
            f26: "-",
            f297: 20261120,
            f2: "-",
            f15: "-",
            f16: "-",
            f17: "-",
            f5: "-",
            f6: "-",
            f18: 5.1,
            f20: "-",
            f21: "-",
          },
          {
            f12: "830799",
            f13: 0,
            f14: "艾融软件",
            f100: "软件开发",
            f26: 20191230,
            f297: 20261127,
            f2: 30,
            f15: 31,
            f16: 29,
            f17: 29.5,
            f5: 100,
            f6: 3e5,
            f18: 29.8,
            f20: 3e9,
            f21: 2e9,
          },
        ],
      },
    });
    const r = parseEastmoneyUniverse(text);
    if (!r.ok) throw new Error(r.error.message);
    const [mt, st, bj] = r.value.rows;
    expect(r.value.total).toBe(3);
    expect(mt).toMatchObject({
      id: "SH.600519",
      industry: "白酒",
      st: false,
      listedOn: "2001-08-27",
      board: "main",
      prevClose: 1490.1,
      floatCap: 1.9e12,
    });
    expect(mt?.bar).toEqual({
      date: "2026-11-27",
      open: 1495,
      high: 1510,
      low: 1490,
      close: 1500.5,
      volume: 2_000_000,
      amount: 3e9,
    });
    expect(st).toMatchObject({
      id: "SZ.000004",
      st: true,
      industry: null,
      listedOn: null,
      bar: null,
      tradeDate: "2026-11-20",
    });
    expect(bj).toMatchObject({ id: "BJ.830799", board: "bse" });
  });

  it("refuses what is not a list page", () => {
    expect(parseEastmoneyUniverse("<html>").ok).toBe(false);
    expect(parseEastmoneyUniverse(JSON.stringify({ data: { total: "x" } })).ok).toBe(false);
    expect(parseEastmoneyUniverse(JSON.stringify({ data: null }))).toEqual({ ok: true, value: { rows: [], total: 0 } });
  });

  it("reads compact dates strictly", () => {
    expect(compactDate(20261127)).toBe("2026-11-27");
    expect(compactDate("20260230")).toBeNull();
    expect(compactDate("-")).toBeNull();
  });
});

describe("sync planner", () => {
  it("appends, refetches or skips each symbol by what the store holds", () => {
    const rows = [
      row("600000"), // ends the day before, same close → append
      row("600001"), // never stored → fetch (new)
      row("600002"), // too short → fetch (short)
      row("600003", { prevClose: 9.5 }), // previous close moved: dividend → fetch
      row("600004"), // ends two days before → gap
      row("600005"), // already current → skip
      row("600006", { bar: null, tradeDate: "2026-11-20" }), // suspended → skip
      row("600007"), // failed last run → fetch first
    ];
    const heads = new Map<string, SeriesHead>([
      ["SH.600000", head("2026-11-26")],
      ["SH.600002", head("2026-11-26", 10, MIN_SYNC_BARS - 1)],
      ["SH.600003", head("2026-11-26")],
      ["SH.600004", head("2026-11-25")],
      ["SH.600005", head("2026-11-27", 10.2)],
      ["SH.600006", head("2026-11-20")],
      ["SH.600007", head("2026-11-26")],
    ]);
    const plan = planSync(rows, heads, new Set(["SH.600007"]));
    expect(plan.tradeDate).toBe("2026-11-27");
    expect(plan.previousDate).toBe("2026-11-26");
    expect(plan.append.map((a) => a.id)).toEqual(["SH.600000"]);
    expect(plan.fetch).toEqual([
      { id: "SH.600001", reason: "new" },
      { id: "SH.600002", reason: "short" },
      { id: "SH.600003", reason: "corporate_action" },
      { id: "SH.600004", reason: "gap" },
      { id: "SH.600007", reason: "retry" },
    ]);
    expect(plan.skipped).toBe(2);
  });

  it("compares closes to half a tick or 0.05 %", () => {
    expect(sameClose(10, 10.004)).toBe(true);
    expect(sameClose(10, 10.01)).toBe(false);
    expect(sameClose(1500, 1500.7)).toBe(true);
    expect(sameClose(1500, 1501)).toBe(false);
  });

  it("takes the most common stored end before the trading day as the previous day", () => {
    const heads = new Map([
      ["a", head("2026-11-26")],
      ["b", head("2026-11-26")],
      ["c", head("2026-11-20")],
      ["d", head("2026-11-27")],
    ]);
    expect(previousTradeDate(heads, "2026-11-27")).toBe("2026-11-26");
  });

  it("cuts appends and fetches into bounded batches, the extra fetches first", () => {
    const bar = { date: "2026-11-27", open: 10, high: 10.5, low: 9.9, close: 10.2, volume: 1e6 };
    const append = Array.from({ length: APPEND_BATCH + 1 }, (_, i) => ({ id: `A${i}`, bar }));
    const fetch = Array.from({ length: FETCH_BATCH }, (_, i) => ({ id: `F${i}`, reason: "new" as const }));
    const batches = planBatches({ tradeDate: null, previousDate: null, append, fetch, skipped: 0 }, ["IDX"]);
    expect(batches.map((b) => [b.batch, b.mode, b.items.length])).toEqual([
      [0, "append", APPEND_BATCH],
      [1, "append", 1],
      [2, "fetch", FETCH_BATCH],
      [3, "fetch", 1],
    ]);
    expect(batches[2]?.items[0]).toBe("IDX");
  });
});
