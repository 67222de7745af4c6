/** Backtest trade rules, metrics and the replay over the simulated market. */
import { describe, expect, it } from "vitest";
import type { Bar } from "../../../worker/contracts/analysis";
import { BacktestInput } from "../../../worker/contracts/backtest";
import { navStats, tradeStats } from "../../../worker/engine/backtest/metrics";
import { replayBacktest } from "../../../worker/engine/backtest/replay";
import { FRICTION, simulateTrade, type TradeRules } from "../../../worker/engine/backtest/simulate-trade";
import { resolveParams } from "../../../worker/engine/params";
import { buildSeries } from "../../../worker/engine/series";
import { SIM_INDEX_COMPOSITE, buildSimMarket } from "../../../worker/market/offline/sim-market";

function bars(rows: [number, number, number, number][]): Bar[] {
  return rows.map(([open, high, low, close], i) => ({
    date: `2026-01-${String(i + 1).padStart(2, "0")}`,
    open,
    high,
    low,
    close,
    volume: 1e6,
  }));
}

const rules: TradeRules = {
  exitMode: "sltp",
  holdDays: 5,
  stopLoss: -0.08,
  takeProfit: 0.18,
  trailing: null,
  priority: "stop_first",
  entryPrice: "next_open",
  lastIndex: 0,
  limitRules: true,
};

function run(rows: [number, number, number, number][], r: Partial<TradeRules> = {}) {
  const s = buildSeries(bars(rows), "CN", resolveParams());
  return simulateTrade(s, 0, { ...rules, lastIndex: s.n - 1, ...r });
}

describe("simulateTrade", () => {
  it("enters at the next open and never exits on the entry day (T+1)", () => {
    const t = run([
      [10, 10, 10, 10],
      [10, 10.2, 8.5, 9.5], // entry day: the low is under the stop, but T+1 forbids selling
      [9.5, 9.6, 9.3, 9.4],
      [9.4, 9.6, 9.3, 9.5],
      [9.5, 9.6, 9.4, 9.5],
      [9.5, 9.6, 9.4, 9.5],
      [9.5, 9.6, 9.4, 9.6],
    ]);
    expect(t?.entryIndex).toBe(1);
    expect(t?.entryPrice).toBe(10);
    expect(t?.exitIndex).toBe(6);
    expect(t?.exitReason).toBe("holding period ended");
    expect(t?.ret).toBeCloseTo((9.6 * (1 - FRICTION)) / (10 * (1 + FRICTION)) - 1, 10);
  });

  it("skips a one-price limit-up entry day", () => {
    expect(
      run([
        [10, 10, 10, 10],
        [11, 11, 11, 11],
        [11, 11.5, 10.8, 11.2],
      ]),
    ).toBeNull();
  });

  it("fills a stop at the open when the price gaps through it, else at the stop", () => {
    const gap = run([
      [10, 10, 10, 10],
      [10, 10.1, 9.9, 10],
      [8, 8.2, 7.8, 8],
    ]);
    expect(gap).toMatchObject({ exitPrice: 8, exitReason: "stop loss" });
    const touch = run([
      [10, 10, 10, 10],
      [10, 10.1, 9.9, 10],
      [9.5, 9.6, 9.1, 9.4],
    ]);
    expect(touch?.exitPrice).toBeCloseTo(9.2, 10);
  });

  it("cannot sell on a one-price limit-down day", () => {
    const t = run([
      [10, 10, 10, 10],
      [10, 10.1, 9.9, 10],
      [9, 9, 9, 9], // locked limit-down: the stop cannot fill
      [9.1, 9.3, 8.9, 9.2],
    ]);
    expect(t?.exitIndex).toBe(3);
  });

  it("orders stop and take-profit by priority when both touch", () => {
    const rows: [number, number, number, number][] = [
      [10, 10, 10, 10],
      [10, 10.1, 9.9, 10],
      [10, 12, 9, 10],
    ];
    expect(run(rows)?.exitReason).toBe("stop loss");
    expect(run(rows, { priority: "take_first" })?.exitReason).toBe("take profit");
  });
});

describe("metrics", () => {
  it("trade statistics", () => {
    const s = tradeStats([0.1, -0.05, -0.02, -0.01, 0.03]);
    expect(s).toMatchObject({
      trades: 5,
      winRatePct: 40,
      avgRetPct: 1,
      medianRetPct: -1,
      maxConsecutiveLosses: 3,
      cvar95Pct: -5,
    });
  });

  it("NAV statistics: drawdown and total return", () => {
    const s = navStats([1, 1.1, 0.99, 1.21]);
    expect(s.maxDrawdownPct).toBe(-10);
    expect(s.totalRetPct).toBe(21);
    expect(s.sharpe).toBeGreaterThan(0);
  });
});

describe("replayBacktest over the simulated market", () => {
  it("replays with entries after the signal day and stated caveats", async () => {
    const sim = buildSimMarket({ seed: 11, stocks: 80, days: 330, endDate: "2026-06-30" });
    const input = BacktestInput.parse({ hold_days: 5, top_n: 2 });
    const r = await replayBacktest(
      {
        market: "CN",
        label: "SIM",
        simulated: true,
        symbols: sim.symbols
          .filter((s) => s.kind === "stock")
          .map((s) => ({
            meta: { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board },
            bars: sim.bars.get(s.id) ?? [],
          })),
        index: sim.bars.get(SIM_INDEX_COMPOSITE) ?? [],
      },
      input,
      resolveParams(),
    );
    expect(r).not.toBeNull();
    if (!r) return;
    expect(r.symbols).toBe(80);
    expect(r.trades).toBe(r.trade_list.length);
    for (const t of r.trade_list) {
      expect(t.entryDate > t.signalDate).toBe(true);
      expect(t.exitDate >= t.entryDate).toBe(true);
    }
    expect(r.caveats[0]).toMatch(/Simulated/);
  });

  it("stops when a checkpoint says so", async () => {
    const sim = buildSimMarket({ seed: 3, stocks: 10, days: 330, endDate: "2026-06-30" });
    const r = await replayBacktest(
      {
        market: "CN",
        label: "SIM",
        simulated: true,
        symbols: sim.symbols
          .filter((s) => s.kind === "stock")
          .map((s) => ({
            meta: { id: s.id, code: s.id, name: s.name, industry: null, board: s.board },
            bars: sim.bars.get(s.id) ?? [],
          })),
        index: sim.bars.get(SIM_INDEX_COMPOSITE) ?? [],
      },
      BacktestInput.parse({}),
      resolveParams(),
      async () => false,
    );
    expect(r).toBeNull();
  });

  it("rejects a start after the end", () => {
    expect(BacktestInput.safeParse({ start: "2026-05-01", end: "2026-01-01" }).success).toBe(false);
  });
});
