/**
 * The portfolio tools and their shared change path with fake ports: an in-memory PortfolioStore and
 * the real MarketData service over an in-memory cache of the offline bundle. Planning (averaging,
 * updates, removal), universe checks, diagnosis per holding, CSV round trips.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Portfolio, TradeRecord } from "../../../worker/contracts/portfolio";
import { parseCsv, toCsv } from "../../../worker/lib/csv";
import { createMarketDataService } from "../../../worker/market/service/market-data-service";
import { buildOfflineBundle } from "../../../worker/market/offline/bundle";
import type { MarketData } from "../../../worker/ports/market-data";
import type { PortfolioStore, PortfolioWrite } from "../../../worker/ports/portfolio-store";
import type { ToolContext, ToolDeps } from "../../../worker/tools/deps";
import { portfolioHandler } from "../../../worker/tools/handlers/portfolio";
import { applyPortfolioChange } from "../../../worker/tools/handlers/portfolio-changes";
import { positionsCsv, readPositionsCsv } from "../../../worker/tools/handlers/portfolio-import";
import { valuePortfolio } from "../../../worker/tools/handlers/portfolio-valuation";
import { updatePortfolioHandler } from "../../../worker/tools/handlers/update-portfolio";
import { findTool } from "../../../worker/tools/registry";
import { portfolioSpec } from "../../../worker/tools/specs/portfolio";
import { updatePortfolioSpec } from "../../../worker/tools/specs/update-portfolio";
import { createMemoryCache } from "../../support/market/memory-cache";

const csv = readFileSync(
  path.resolve(import.meta.dirname, "../../../node_modules/vega-datasets/data/sp500-2000.csv"),
  "utf8",
);
const NOW = Date.parse("2026-07-01T08:00:00Z");

/** An in-memory PortfolioStore (the D1 adapter's contract, per owner). */
function memoryStore(): PortfolioStore & { writes: PortfolioWrite[] } {
  const books = new Map<string, Portfolio>();
  const trades = new Map<string, TradeRecord[]>();
  const empty = (): Portfolio => ({ freeCash: 0, positionCount: 0, positions: [], updatedAt: null });
  const writes: PortfolioWrite[] = [];
  return {
    writes,
    read: async (owner) => structuredClone(books.get(owner) ?? empty()),
    trades: async (owner) => [...(trades.get(owner) ?? [])].reverse(),
    async commit(owner, w, now) {
      writes.push(w);
      const at = new Date(now).toISOString();
      const book = books.get(owner) ?? empty();
      const byCode = new Map(w.replaceAll ? [] : book.positions.map((p) => [p.code, p]));
      for (const c of w.remove) byCode.delete(c);
      for (const p of w.upsert) byCode.set(p.code, { ...p, updatedAt: at });
      const positions = [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
      books.set(owner, {
        freeCash: w.freeCash ?? book.freeCash,
        positionCount: positions.length,
        positions,
        updatedAt: at,
      });
      const list = trades.get(owner) ?? [];
      const before = list.length;
      const kept = list.filter(
        (t) => !(w.deleteTrades?.ids?.includes(t.id) || (t.code && w.deleteTrades?.codes?.includes(t.code))),
      );
      for (const [i, t] of w.trades.entries())
        kept.push({
          id: `tr_${list.length + i}`,
          action: t.action,
          code: t.code ?? null,
          name: t.name ?? null,
          shares: t.shares ?? null,
          price: t.price ?? null,
          amount: t.amount ?? null,
          note: t.note ?? null,
          at,
        });
      trades.set(owner, kept);
      return { deletedTrades: before - (kept.length - w.trades.length) };
    },
  };
}

let market: MarketData;
let names: Map<string, string>;

beforeAll(() => {
  const bundle = buildOfflineBundle({ sp500Csv: csv, sim: { seed: 7, stocks: 20, days: 330, endDate: "2026-06-30" } });
  const cache = createMemoryCache({ symbols: bundle.symbols, series: bundle.series });
  names = new Map(bundle.symbols.map((s) => [s.id, s.name]));
  market = createMarketDataService({
    mode: "offline",
    cache,
    chains: { CN: [], US: [] },
    searchers: [],
    now: () => NOW,
  });
});

function setup(userId = "u1") {
  const store = memoryStore();
  const deps = { clock: () => NOW, market, portfolio: store } as unknown as ToolDeps;
  const ctx: ToolContext = { sessionId: "s_t", userId, toolCallId: "c", signal: new AbortController().signal };
  const update = (input: unknown) => updatePortfolioHandler(updatePortfolioSpec.input.parse(input), deps, ctx);
  const view = (input: unknown) => portfolioHandler(portfolioSpec.input.parse(input), deps, ctx);
  return { store, deps, ctx, update, view };
}

describe("portfolio tools", () => {
  it("are registered, and update_portfolio asks for approval while portfolio does not", () => {
    expect(findTool("update_portfolio")?.spec.annotations).toMatchObject({ requiresApproval: true, readOnly: false });
    expect(findTool("portfolio")?.spec.annotations).toMatchObject({ requiresApproval: false, readOnly: true });
  });

  it("adds (averaging the cost on a second buy), updates, removes and sets cash", async () => {
    const { update, view } = setup();
    const first = await update({ action: "add", code: "SIM.0001", shares: 100, cost: 10, buyDate: "20260102" });
    expect(first).toMatchObject({ ok: true, value: { success: true, positionCount: 1 } });
    await update({ action: "add", code: "sim.0001", shares: 300, cost: 14 });
    await update({ action: "update", code: "SIM.0001", stop: 9.5 });
    await update({ action: "set_cash", freeCash: 1234.5 });
    const r = await view({});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toMatchObject({ mode: "view", freeCash: 1234.5, positionCount: 1 });
    expect(r.value.positions[0]).toMatchObject({
      code: "SIM.0001",
      name: names.get("SIM.0001"),
      shares: 400,
      cost: 13,
      buyDate: "2026-01-02",
      stop: 9.5,
    });
    expect(await update({ action: "remove", code: "SIM.0001" })).toMatchObject({
      ok: true,
      value: { positionCount: 0 },
    });
  });

  it("checks codes and names against the universe, and nothing is written on a refusal", async () => {
    const { update, store } = setup();
    expect(await update({ action: "add", code: "NOPE", shares: 1, cost: 1 })).toMatchObject({
      ok: false,
      error: { details: { field: "code" } },
    });
    expect(await update({ action: "add", code: "SIM.0002", name: "Wrong Name", shares: 1, cost: 1 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", details: { field: "name" } },
    });
    expect(await update({ action: "update", code: "SIM.0002", shares: 3 })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(store.writes).toEqual([]);
    const named = await update({ action: "add", code: "SIM.0002", name: names.get("SIM.0002"), shares: 1, cost: 1 });
    expect(named.ok).toBe(true);
  });

  it("validates input with the field named (the runtime and the routes parse with the same schema)", () => {
    const issues = (input: unknown) =>
      updatePortfolioSpec.input.safeParse(input).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(issues({ action: "add", code: "SIM.0001", shares: 1 })).toEqual(["cost"]);
    expect(issues({ action: "set_cash" })).toEqual(["freeCash"]);
    expect(issues({ action: "delete_records" })).toEqual(["codes"]);
    expect(issues({ action: "add", code: "SIM.0001", shares: 1, cost: 1, buyDate: "2026-13-01" })).toEqual(["buyDate"]);
    expect(issues({ action: "add", code: "SIM.0001", shares: 0, cost: 1 })).toEqual(["shares"]);
  });

  it("moves cash with trades: a buy takes shares × cost out, a sale puts shares × price back", async () => {
    const { update, store } = setup();
    await update({ action: "set_cash", freeCash: 10_000 });
    const buy = await update({ action: "add", code: "SIM.0001", shares: 100, cost: 12.5 });
    expect(buy).toMatchObject({ ok: true, value: { freeCash: 8750, cashMove: { amount: -1250, price: 12.5 } } });
    // A sale without a price is priced at the last close.
    const bars = await market.dailyBars("SIM.0001", { days: 1 });
    if (!bars.ok) throw new Error(bars.error.message);
    const close = bars.value.bars.at(-1)?.close ?? NaN;
    const sale = await update({ action: "remove", code: "SIM.0001" });
    const proceeds = Math.round(100 * close * 100) / 100;
    expect(sale).toMatchObject({ ok: true, value: { positionCount: 0, cashMove: { amount: proceeds, price: close } } });
    expect(sale.ok && sale.value.freeCash).toBeCloseTo(8750 + proceeds, 2);
    // A given sale price wins.
    await update({ action: "add", code: "SIM.0002", shares: 10, cost: 5 });
    const at = await update({ action: "remove", code: "SIM.0002", price: 7 });
    expect(at).toMatchObject({ ok: true, value: { cashMove: { amount: 70, price: 7 } } });
    const records = await store.trades("u1");
    expect(records[0]).toMatchObject({ action: "remove", price: 7, amount: 70 });
    expect(records[0]?.note).toContain("cash +70");
  });

  it("records a holding without moving cash when asked, or when free cash does not cover the buy", async () => {
    const { update } = setup();
    // No cash set: the buy is recorded, cash stays 0 (never negative), the summary says why.
    const uncovered = await update({ action: "add", code: "SIM.0001", shares: 100, cost: 10 });
    expect(uncovered).toMatchObject({ ok: true, value: { freeCash: 0 } });
    expect(uncovered.ok && uncovered.value.message).toContain("does not cover 1000");
    expect(uncovered.ok && "cashMove" in uncovered.value).toBe(false);
    // cash: "trade" refuses an uncovered buy, naming the field; nothing is written.
    expect(await update({ action: "add", code: "SIM.0002", shares: 100, cost: 10, cash: "trade" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", details: { field: "cash", amount: 1000 } },
    });
    await update({ action: "set_cash", freeCash: 5000 });
    // cash: "record" leaves cash alone for a covered buy and for a sale.
    const recorded = await update({ action: "add", code: "SIM.0003", shares: 10, cost: 10, cash: "record" });
    expect(recorded).toMatchObject({ ok: true, value: { freeCash: 5000 } });
    const closed = await update({ action: "remove", code: "SIM.0003", cash: "record" });
    expect(closed).toMatchObject({ ok: true, value: { freeCash: 5000 } });
    // update corrects fields and never moves cash.
    expect(await update({ action: "update", code: "SIM.0001", shares: 50 })).toMatchObject({
      ok: true,
      value: { freeCash: 5000 },
    });
    expect(
      updatePortfolioSpec.input.safeParse({ action: "add", code: "SIM.0001", shares: 1, cost: 1, price: 2 }).success,
    ).toBe(false);
  });

  it("values holdings at the last close with P&L, counting a holding without a price at cost", async () => {
    const { update, store } = setup();
    await update({ action: "set_cash", freeCash: 2000 });
    await update({ action: "add", code: "SIM.0001", shares: 100, cost: 10 });
    const bars = await market.dailyBars("SIM.0001", { days: 1 });
    if (!bars.ok) throw new Error(bars.error.message);
    const last = bars.value.bars.at(-1);
    const book = await store.read("u1");
    // A held code the market no longer has (e.g. delisted from the bundle) keeps its cost.
    const held = book.positions[0];
    if (!held) throw new Error("no position");
    book.positions.push({ ...held, code: "SIM.9999", shares: 10, cost: 3 });
    const v = await valuePortfolio(market, book);
    const value = Math.round(100 * (last?.close ?? 0) * 100) / 100;
    expect(v.positions[0]).toMatchObject({
      code: "SIM.0001",
      price: last?.close,
      priceDate: last?.date,
      value,
      pnl: Math.round((value - 1000) * 100) / 100,
      simulated: true,
    });
    expect(v.positions[0]?.pnlPct).toBeCloseTo(((value - 1000) / 1000) * 100, 2);
    expect(v.positions[1]).toMatchObject({ code: "SIM.9999", price: null, value: null });
    expect(v.positions[1]?.error).toBeTruthy();
    expect(v.cash).toBe(1000);
    expect(v.marketValue).toBeCloseTo(value + 30, 2);
    expect(v.totalValue).toBeCloseTo(value + 30 + 1000, 2);
  });

  it("deletes trade records by code", async () => {
    const { update, store } = setup();
    await update({ action: "add", code: "SIM.0003", shares: 10, cost: 5 });
    await update({ action: "add", code: "SIM.0004", shares: 10, cost: 5 });
    const r = await update({ action: "delete_records", codes: ["SIM.0003"] });
    expect(r).toMatchObject({ ok: true, value: { deletedRecords: 1 } });
    expect((await store.trades("u1")).map((t) => t.code)).toEqual(["SIM.0004"]);
  });

  it("diagnoses every holding against its cost and stop, reporting unknown data as failed", async () => {
    const { deps, view } = setup();
    await applyPortfolioChange("u1", { action: "add", code: "SIM.0005", shares: 100, cost: 8 }, deps);
    await applyPortfolioChange("u1", { action: "add", code: "SIM.0006", shares: 100, cost: 1e6 }, deps);
    const r = await view({ mode: "diagnose" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toMatchObject({ mode: "diagnose", successfulCount: 2, failedCount: 0 });
    const rich = r.value.diagnostics?.find((d) => d.code === "SIM.0006");
    // Bought at a fantasy price: deep loss, stop hit, graded danger.
    expect(rich).toMatchObject({ ok: true, grade: "danger", stopStatus: "hit", simulated: true });
    expect(rich?.pnlPct).toBeLessThan(-90);
  });

  it("keeps owners apart", async () => {
    const { deps } = setup();
    await applyPortfolioChange("u1", { action: "set_cash", freeCash: 10 }, deps);
    expect((await deps.portfolio.read("u2")).freeCash).toBe(0);
  });
});

describe("CSV", () => {
  it("round-trips quoted fields and reads aliases; a bad row names its line and field", async () => {
    const text = toCsv([
      ["a", 'say "hi", then', null],
      [1, 2.5, "x\ny"],
    ]);
    expect(parseCsv(text)).toEqual([
      ["a", 'say "hi", then', ""],
      ["1", "2.5", "x\ny"],
    ]);
    expect(readPositionsCsv("symbol,qty,cost_price,buy_dt\nSIM.0001,5,1.5,20260105\n")).toEqual({
      ok: true,
      value: [{ code: "SIM.0001", shares: 5, cost: 1.5, buyDate: "2026-01-05" }],
    });
    expect(readPositionsCsv("code,shares\nSIM.0001,5")).toMatchObject({
      ok: false,
      error: { details: { field: "csv" } },
    });
    expect(readPositionsCsv("code,shares,cost\nSIM.0001,5,1\nSIM.0002,-1,1")).toMatchObject({
      ok: false,
      error: { details: { field: "rows[1].shares", line: 3 } },
    });
    expect(
      positionsCsv({
        freeCash: 0,
        positionCount: 1,
        updatedAt: null,
        positions: [{ code: "SIM.0001", name: "A, B", shares: 1, cost: 2, buyDate: null, stop: null, updatedAt: "" }],
      }),
    ).toBe('code,name,shares,cost,buy_date,stop\r\nSIM.0001,"A, B",1,2,,\r\n');
  });
});
