/**
 * Background-work benchmarks (Node, one process, CPU time):
 *
 * - the backtest replay (`replayBacktest`) over 5,300 symbols for one and three years of days, as it
 *   ships: worker/engine/backtest/replay.ts bundled by esbuild into one module (`?shipped`, bench/shipped-plugin.ts)
 *   and run in this process (`backtest_*y_cpu_ms`, the goal's figures); then the same input through
 *   vitest's module runner (`backtest_*y_module_runner_cpu_ms`, and the ratio), both results' JSON
 *   checked equal by sha-256. Timed: process CPU of the one call; the input is built before the clock.
 *
 * The backtests run once each way (growth: 3 years against 1, bundled). Never asserted. The screening
 * funnel from chunks in Node: funnel-shipped.bench.ts.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Board } from "../worker/contracts/analysis";
import { BacktestInput } from "../worker/contracts/backtest";
import { replayBacktest } from "../worker/engine/backtest/replay";
import { resolveParams } from "../worker/engine/params";
import type { BarColumns } from "../worker/engine/series";
import { walk, weekdays } from "./support/market-universe";
import { growth, record } from "./support/record";
import { createRng } from "../worker/engine/sim/rng";

/** The replay as `wrangler deploy` ships it: one esbuild bundle (`?shipped`, bench/shipped-plugin.ts). */
const REPLAY_SHIPPED: string = "../worker/engine/backtest/replay.ts?shipped";

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

describe("background benchmarks", () => {
  // One test per length (a hang cap each: the three-year replay takes minutes of wall on a loaded machine).
  // The same input replayed twice: the shipped bundle (the goal's figure), then the module runner.
  const figures: number[] = [];
  for (const years of [1, 3])
    it(`backtest replay over 5,300 symbols: ${years} year${years > 1 ? "s" : ""}`, async () => {
      const shipped = (await import(/* @vite-ignore */ REPLAY_SHIPPED)) as { replayBacktest: typeof replayBacktest };
      // 320 bars of history before the replayed days; columns, not bar objects (as the cache reads them).
      const cal = weekdays(320 + 250 * years);
      const rng = createRng(20261129);
      const symbols = Array.from({ length: 5300 }, (_, i) => {
        const bars = walk(rng, cal);
        const columns: BarColumns = {
          date: bars.map((b) => b.date),
          open: Float64Array.from(bars, (b) => b.open),
          high: Float64Array.from(bars, (b) => b.high),
          low: Float64Array.from(bars, (b) => b.low),
          close: Float64Array.from(bars, (b) => b.close),
          volume: Float64Array.from(bars, (b) => b.volume),
          amount: Float64Array.from(bars, (b) => b.amount ?? Number.NaN),
        };
        const id = `SIM.${String(i + 1).padStart(4, "0")}`;
        const industry = ["电子", "医药", "银行", "食品", "电气", "软件"][i % 6] ?? null;
        return {
          meta: { id, code: id, name: `S${i}`, industry, board: (i % 4 === 0 ? "chinext" : "main") as Board },
          bars: columns,
        };
      });
      const index = walk(createRng(99), cal);
      const input = BacktestInput.parse({ hold_days: 15, top_n: 2, start: cal[320] });
      const params = resolveParams();
      const run = async (replay: typeof replayBacktest) => {
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const r = await replay({ market: "CN", label: "SIM", simulated: true, symbols, index }, input, params);
        return { cpu: cpuMs(cpu0), wall: performance.now() - t0, r };
      };
      const bundle = await run(shipped.replayBacktest);
      const runner = await run(replayBacktest);
      const sha = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex");
      expect(sha(bundle.r), "the bundle and the module runner replay to the same result").toBe(sha(runner.r));
      figures.push(bundle.cpu);
      const r = bundle.r;
      console.log(
        `backtest ${years}y: ${r?.period} ${r?.trades} trades, ${r?.signal_days} signal days (sha ${sha(r).slice(0, 12)}); bundle CPU ${bundle.cpu.toFixed(0)} ms wall ${bundle.wall.toFixed(0)} ms; module runner CPU ${runner.cpu.toFixed(0)} ms wall ${runner.wall.toFixed(0)} ms`,
      );
      const what = `one replayBacktest call: prepare 5,300 symbols (${320 + 250 * years} bars each, columns; once per pass of ≤ 1.5M symbol-days, so ${Math.ceil((5300 * 250 * years) / 1_500_000)} time${years > 1 ? "s" : ""}) + ${250 * years} days of map (L1, L2, triggers, trades) and reduce (RPS, L2–L5, allocation) + metrics`;
      record({
        id: `backtest_${years}y_cpu_ms`,
        name: `backtest replay, ${years} year${years > 1 ? "s" : ""} × 5,300 symbols (CPU, shipped bundle)`,
        value: Math.round(bundle.cpu),
        unit: "ms",
        n: 1,
        goal: years === 1 ? 10_000 : 30_000,
        ...(years === 3 && figures.length === 2
          ? { growth: growth(bundle.cpu, figures[0] ?? bundle.cpu, "1 year") }
          : {}),
        timed: `process CPU of ${what}; worker/engine/backtest/replay.ts bundled by esbuild into one module (as wrangler ships it) and run in the bench process; input built before the clock`,
      });
      record({
        id: `backtest_${years}y_module_runner_cpu_ms`,
        name: `backtest replay, ${years} year${years > 1 ? "s" : ""} × 5,300 symbols (CPU, vitest's module runner)`,
        value: Math.round(runner.cpu),
        unit: "ms",
        n: 1,
        timed: `as backtest_${years}y_cpu_ms, the same input right after it, every module as vitest runs sources (each imported binding read off a namespace object) instead of the bundle — the harness's overhead, not the product's; same result (sha-256 of the JSON) checked`,
      });
      record({
        id: `backtest_module_runner_ratio_${years}y`,
        name: `module runner / shipped bundle, backtest replay ${years} year${years > 1 ? "s" : ""}`,
        value: Math.round((runner.cpu / bundle.cpu) * 100) / 100,
        unit: "×",
        timed: `backtest_${years}y_module_runner_cpu_ms / backtest_${years}y_cpu_ms, same run, same input`,
      });
    }, 1_800_000);
});
