/**
 * The other background jobs inside workerd over the offline market: backtests (honest caveats, one
 * symbol, fanned out with the coordinator's replay equal to the single call), the offline model's
 * report, strategy decisions, query_history and the daily cron.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createBackgroundPort } from "../../worker/background/background-port";
import { startDailyScreening } from "../../worker/background/daily-screening";
import { coordinatorOf } from "../../worker/background/screen-jobs";
import { boardFilter } from "../../worker/background/universe";
import { BacktestInput, type BacktestResult } from "../../worker/contracts/backtest";
import { replayBacktest } from "../../worker/engine/backtest/replay";
import { resolveParams } from "../../worker/engine/params";
import type { ReportResult, StrategyResult } from "../../worker/contracts/report";
import { cache, capturing, deliver, getTask, seedOfflineMarket, silent, submit } from "./background-helpers";
beforeAll(seedOfflineMarket, 120_000); // a hang cap for loading the bundle on a busy machine, not a timing budget
describe("other background jobs", () => {
  it("backtests the offline market with honest caveats", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "run_backtest", { hold_days: 5, top_n: 2, exit_mode: "sltp" });
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    for (const m of sent.filter((x) => (x as { kind: string }).kind === "backtest.batch"))
      expect((await deliver(deps, m)).acked).toBe(true);
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const r = t.result as BacktestResult;
    expect(r.universe).toBe("SIM");
    expect(r.trades).toBe(r.trade_list.length);
    expect(r.nav.length).toBeGreaterThan(10);
    expect(r.caveats.join(" ")).toMatch(/Survivorship/);
    expect(r.caveats.join(" ")).toMatch(/Simulated market/);
    for (const trade of r.trade_list) expect(trade.entryDate > trade.signalDate).toBe(true);
  }, 30_000);

  it("backtests only the symbol it is given (not the whole market)", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "run_backtest", { hold_days: 5, top_n: 2, symbol: "SIM.0002" });
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    for (const m of sent.filter((x) => (x as { kind: string }).kind === "backtest.batch"))
      expect((await deliver(deps, m)).acked).toBe(true);
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const r = t.result as BacktestResult;
    expect(r.symbols).toBe(1);
    for (const trade of r.trade_list) expect(trade.code).toBe("SIM.0002");
  }, 30_000);

  it("fans a backtest out in symbol batches; the coordinator's day replay equals the single-call replay", async () => {
    const { deps, sent } = capturing({ batchSize: 70 });
    const input = { hold_days: 10, top_n: 3, exit_mode: "close_only" };
    const id = await submit(deps, "run_backtest", input);
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    const batches = sent.filter((m) => (m as { kind: string }).kind === "backtest.batch");
    expect(batches).toHaveLength(5);
    const coordinator = coordinatorOf(deps, id);
    for (const [i, m] of batches.entries()) {
      expect((await deliver(deps, m)).acked).toBe(true);
      if (i === 0) expect((await deliver(deps, m, 2)).acked).toBe(true); // a redelivery counts once
      if (i < batches.length - 1) expect((await getTask(id)).status).toBe("running");
    }
    expect(await coordinator.state()).toMatchObject({ received: 5, total: 5, finished: true });
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const fanned = t.result as BacktestResult;
    // The same backtest in one call over the same cached bars (the pre-fan-out path).
    const symbols = boardFilter(await cache.listSymbols("SIM", "stock"), "all");
    const series = await cache.getSeriesMany(symbols.map((s) => s.id));
    const byId = new Map(series.map((s) => [s.symbolId, s.bars]));
    const single = await replayBacktest(
      {
        market: "CN",
        label: "SIM",
        simulated: true,
        symbols: symbols.map((s) => ({
          meta: { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board },
          bars: byId.get(s.id) ?? [],
        })),
        index: (await cache.getSeries("SIM.IDX1"))?.bars ?? [],
        smallCap: (await cache.getSeries("SIM.IDX2"))?.bars ?? [],
      },
      BacktestInput.parse(input),
      resolveParams(),
    );
    expect(single?.trades).toBeGreaterThan(10);
    // The benchmark NAV is added around the engine's replay; the rest is the engine's own result.
    const { benchmark, benchmark_nav, ...core } = fanned;
    expect(benchmark).toBe("SIM.IDX1");
    expect(benchmark_nav?.map((p) => p.date)).toEqual(fanned.nav.map((p) => p.date));
    expect(benchmark_nav?.[0]?.nav).toBe(1);
    expect(core).toEqual(single);
    // A redelivered start of a finished backtest sends nothing more.
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    expect(sent.filter((m) => (m as { kind: string }).kind === "backtest.batch")).toHaveLength(5);
    // The per-day rows are freed once the task is complete; a late redelivery is still a duplicate.
    expect(await deliver(deps, batches[4] as never)).toMatchObject({ acked: true });
    const { runInDurableObject } = await import("cloudflare:test");
    const leftover = await runInDurableObject(coordinator as never, (_instance: unknown, state: DurableObjectState) => {
      const tables = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'bt_%'")
        .toArray();
      const bytes = state.storage.sql
        .exec<{ n: number }>("SELECT COALESCE(SUM(LENGTH(data)), 0) AS n FROM partials")
        .one().n;
      return { tables: tables.length, bytes };
    });
    expect(leftover).toEqual({ tables: 0, bytes: 10 });
  }, 60_000);

  it("writes a rule-based report with the offline model, labelled as such", async () => {
    const { deps } = capturing({});
    const offline = { ...deps, config: { ...deps.config, model: undefined } };
    const id = await submit(offline, "generate_ai_report", { stock_codes: ["SIM.0001", "SIM.0002", "NOPE.1"] });
    await deliver(offline, { kind: "task.run", taskId: id });
    const r = (await getTask(id)).result as ReportResult;
    expect(r).toMatchObject({ ok: true, rule_based: true, model: "rule-based", stock_count: 2, simulated: true });
    expect(r.report_text).toMatch(/Rule-based report/);
    expect(r.missing).toHaveLength(1);
    expect(r.camps.map((c) => c.camp).every((c) => ["起跳板", "储备营地", "逻辑破产"].includes(c))).toBe(true);
  });

  it("decides orders: holdings get a decision, stops only tighten", async () => {
    const { deps } = capturing();
    const offline = { ...deps, config: { ...deps.config, model: undefined } };
    const id = await submit(offline, "generate_strategy_decision", {
      holdings: [{ code: "SIM.0003", shares: 1000, cost_price: 1, stop_loss: 0.5 }],
      free_cash: 100_000,
    });
    await deliver(offline, { kind: "task.run", taskId: id });
    const r = (await getTask(id)).result as StrategyResult;
    expect(r.ok).toBe(true);
    const held = r.decisions.find((d) => d.code === "SIM.0003");
    expect(held).toBeDefined();
    expect(held?.stop ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(r.screen_summary.total_scanned).toBe(300);
  }, 30_000);

  it("query_history reads the tracked signals with status counts", async () => {
    const { deps } = capturing();
    const port = createBackgroundPort(deps);
    const signals = await port.history("local", { source: "signal", limit: 20 });
    expect(signals.source).toBe("signal");
    const total = Object.values(signals.status_counts ?? {}).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(signals.rows.length);
    const recs = await port.history("local", { source: "recommendation", limit: 10 });
    for (const r of recs.rows) expect("current_price" in r).toBe(true);
    expect((await port.history("local", { source: "tail_buy", limit: 5 })).rows).toEqual([]);
  });

  it("the daily cron starts one screening per day and is off by default", async () => {
    const { deps } = capturing();
    const port = createBackgroundPort(deps);
    const now = Date.parse("2026-07-01T07:40:00Z");
    expect(await startDailyScreening({ setting: "off", port, now, log: silent })).toBeNull();
    const a = await startDailyScreening({ setting: "cn", port, now, log: silent });
    const b = await startDailyScreening({ setting: "cn", port, now: now + 60_000, log: silent });
    expect(a).toMatch(/^task_/);
    expect(b).toBe(a);
  });
});
