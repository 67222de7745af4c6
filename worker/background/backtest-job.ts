/**
 * `run_backtest` on the queue: reads the board's cached series and the index, replays the funnel day
 * by day (engine/backtest), checks every few days whether the task was cancelled, and completes it.
 * One queue invocation holds the whole universe in memory.
 */
import { BacktestInput } from "../contracts/backtest";
import { replayBacktest } from "../engine/backtest/replay";
import { resolveParams } from "../engine/params";
import type { TaskRecord } from "../ports/task-store";
import type { BackgroundDeps } from "./background-deps";
import { completeTask } from "./complete-task";
import { PermanentError } from "./queue-consumer";
import { backtestNotification } from "./run-summaries";
import { boardFilter, universeFor } from "./universe";

/** Runs a backtest task. */
export async function runBacktestJob(d: BackgroundDeps, rec: TaskRecord): Promise<void> {
  const parsed = BacktestInput.safeParse(rec.input);
  if (!parsed.success)
    throw new PermanentError(`invalid run_backtest input: ${parsed.error.issues[0]?.message ?? "?"}`);
  const input = parsed.data;
  const u = universeFor(d.config.marketData, input.market);
  const symbols = boardFilter(await d.cache.listSymbols(u.code, "stock"), input.board);
  const [series, index, small] = await Promise.all([
    d.cache.getSeriesMany(symbols.map((s) => s.id)),
    d.cache.getSeries(u.index),
    u.smallCap ? d.cache.getSeries(u.smallCap) : Promise.resolve(null),
  ]);
  const byId = new Map(series.map((s) => [s.symbolId, s.bars]));
  const id = rec.view.id;
  const result = await replayBacktest(
    {
      market: u.engineMarket,
      label: u.code,
      simulated: u.simulated,
      symbols: symbols.map((s) => ({
        meta: { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board },
        bars: byId.get(s.id) ?? [],
      })),
      index: index?.bars ?? [],
      ...(small ? { smallCap: small.bars } : {}),
    },
    input,
    resolveParams(),
    async (pct, detail) => {
      const still = await d.tasks.transition(
        id,
        ["running"],
        { progress: { stage: "backtest", detail, pct: 5 + pct * 0.9 } },
        d.now(),
      );
      return still;
    },
  );
  if (!result) {
    d.log.info("backtest_stopped", { taskId: id });
    return;
  }
  await completeTask(d, rec, result, backtestNotification(id, result));
}
