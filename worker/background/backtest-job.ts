/**
 * `run_backtest` on the queue, fanned out so the whole market fits in memory: `task.run` plans it
 * (board symbols, index bars, calendar and replay window), records the plan with the task's
 * coordinator and sends `backtest.batch` messages of symbols; each batch decodes only its symbols'
 * cached series, answers every replay day by index (the symbol-day map of engine/backtest) and hands
 * the per-day rows to the coordinator, which replays the portfolio day by day once all are in
 * (background/finish-fan-out.ts). Without cached index bars it falls back to one call over the universe.
 */
import type { z } from "zod";
import type { Bar } from "../contracts/analysis";
import type { SymbolInfo } from "../contracts/market";
import { BacktestInput } from "../contracts/backtest";
import { replayWindow, tradeRules, type DayReplayPlan } from "../engine/backtest/day-replay";
import { replayBacktest } from "../engine/backtest/replay";
import { prepareSymbol, symbolDay, WARMUP, type BacktestSymbol } from "../engine/backtest/symbol-days";
import { resolveParams } from "../engine/params";
import type { TaskRecord } from "../ports/task-store";
import type { BackgroundDeps } from "./background-deps";
import { batchMessage, fanOutBatches } from "./fan-out";
import type { BacktestBatchPart, BacktestDay } from "./coordinator-port";
import { completeTask } from "./complete-task";
import { PermanentError, RetryableError, type QueueHandler } from "./queue-consumer";
import { backtestNotification } from "./run-summaries";
import { coordinatorOf } from "./screen-jobs";
import { inUniverse, universeCoverage } from "./market-sync/sync-gate";
import { boardFilter, universeFor } from "./universe";
import { withBenchmark } from "./backtest-extras";

/** The symbols a backtest replays: the board's stocks, or only the one the input names. */
function backtestSymbols(all: readonly SymbolInfo[], input: BacktestInput): SymbolInfo[] {
  const onBoard = boardFilter(all, input.board);
  const wanted = input.symbol?.toUpperCase();
  if (!wanted) return onBoard;
  return all.filter((s) => s.kind === "stock" && (s.id === wanted || s.code === wanted));
}

/** A backtest fan-out batch message. */
export const BacktestBatchMessage = batchMessage("backtest.batch");
export type BacktestBatchMessage = z.infer<typeof BacktestBatchMessage>;

function parseInput(rec: TaskRecord): BacktestInput {
  const parsed = BacktestInput.safeParse(rec.input);
  if (!parsed.success)
    throw new PermanentError(`invalid run_backtest input: ${parsed.error.issues[0]?.message ?? "?"}`);
  return parsed.data;
}

/** The replay plan of a backtest over a universe's cached index (null without index bars). */
async function replayPlan(d: BackgroundDeps, input: BacktestInput): Promise<DayReplayPlan | null> {
  const u = universeFor(d.config.marketData, input.market);
  const [index, small] = await Promise.all([
    d.cache.getSeries(u.index),
    u.smallCap ? d.cache.getSeries(u.smallCap) : Promise.resolve(null),
  ]);
  const bars: Bar[] = index?.bars ?? [];
  if (bars.length === 0) return null;
  const calendar = bars.map((b) => b.date);
  return {
    market: u.engineMarket,
    label: u.code,
    simulated: u.simulated,
    input,
    calendar,
    index: bars,
    ...(small ? { smallCap: small.bars } : {}),
    ...replayWindow(calendar, input),
  };
}

/** Plans a backtest and fans its batches out (idempotent: the coordinator keeps the first plan). */
export async function runBacktestJob(d: BackgroundDeps, rec: TaskRecord): Promise<void> {
  const input = parseInput(rec);
  const u = universeFor(d.config.marketData, input.market);
  // A whole-market backtest needs the synced market; one named symbol needs only its own bars.
  const gate = input.symbol ? { coverage: null, members: null } : await universeCoverage(d.sync, u);
  if ("refused" in gate) throw new PermanentError(gate.refused);
  const symbols = backtestSymbols(inUniverse(gate, await d.cache.listSymbols(u.code, "stock")), input);
  const planned = await replayPlan(d, input);
  if (!planned) return runInOneCall(d, rec, input, symbols);
  const plan = gate.coverage ? { ...planned, notes: [`Coverage: ${gate.coverage.statement} (market sync).`] } : planned;
  const total = Math.max(1, Math.ceil(symbols.length / d.batchSize));
  const state = await coordinatorOf(d, rec.view.id).beginBacktest({ taskId: rec.view.id, total, replay: plan });
  if (state.cancelled || state.finished) return;
  await fanOutBatches(d, rec.view.id, "backtest.batch", symbols, total);
}

/** The map of one batch: every replay day of its symbols (those with enough history), in order. */
export function mapBacktestBatch(prepared: readonly BacktestSymbol[], plan: DayReplayPlan): BacktestBatchPart {
  const ctx = { market: plan.market, params: resolveParams(), rules: tradeRules(plan.input, plan.market) };
  const days: BacktestDay[] = [];
  for (let k = plan.startK; k <= plan.endK; k++) {
    const d = plan.calendar[k] ?? "";
    const day: BacktestDay = { k, eligible: 0, above: 0, rows: [] };
    prepared.forEach((p, sym) => {
      const t = p.at.get(d);
      if (t === undefined || t < WARMUP) return;
      const answer = symbolDay(p, sym, t, ctx);
      day.eligible++;
      if (answer.above) day.above++;
      if (answer.row) day.rows.push(answer.row);
    });
    days.push(day);
  }
  return { metas: prepared.map((p) => p.meta), days };
}

/** The `backtest.batch` handler. */
export function createBacktestBatchHandler(d: BackgroundDeps): QueueHandler {
  return async (body) => {
    const parsed = BacktestBatchMessage.safeParse(body);
    if (!parsed.success) throw new PermanentError("malformed backtest.batch message");
    const msg = parsed.data;
    const coordinator = coordinatorOf(d, msg.taskId);
    const state = await coordinator.state();
    if (!state.planned) throw new RetryableError(`task ${msg.taskId} has no plan yet`);
    if (state.cancelled || state.finished || (await coordinator.has(msg.batch))) return;
    const plan = await coordinator.backtestPlan();
    if (!plan) throw new PermanentError(`task ${msg.taskId} is not a backtest`);
    const series = await d.cache.getColumnsMany(msg.symbols.map((s) => s.id));
    const byId = new Map(series.map((s) => [s.symbolId, s.columns]));
    const params = resolveParams();
    const prepared: BacktestSymbol[] = [];
    for (const s of msg.symbols) {
      const columns = byId.get(s.id);
      if (!columns || columns.close.length <= WARMUP) continue;
      const meta = { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board };
      prepared.push(prepareSymbol(meta, columns, plan.market, params, plan.index));
    }
    await coordinator.submitBacktest(msg.batch, mapBacktestBatch(prepared, plan));
  };
}

/**
 * The single-call path (no cached index to plan against): the universe in one invocation, over the
 * same symbols the planned path would fan out (the synced members in live mode).
 */
async function runInOneCall(
  d: BackgroundDeps,
  rec: TaskRecord,
  input: BacktestInput,
  symbols: ReturnType<typeof backtestSymbols>,
): Promise<void> {
  const u = universeFor(d.config.marketData, input.market);
  const [series, small] = await Promise.all([
    d.cache.getColumnsMany(symbols.map((s) => s.id)),
    u.smallCap ? d.cache.getSeries(u.smallCap) : Promise.resolve(null),
  ]);
  const byId = new Map(series.map((s) => [s.symbolId, s.columns]));
  const id = rec.view.id;
  const result = await replayBacktest(
    {
      market: u.engineMarket,
      label: u.code,
      simulated: u.simulated,
      symbols: symbols.flatMap((s) => {
        const columns = byId.get(s.id);
        const meta = { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board };
        return columns ? [{ meta, bars: columns }] : [];
      }),
      index: [],
      ...(small ? { smallCap: small.bars } : {}),
    },
    input,
    resolveParams(),
    async (pct, detail) =>
      d.tasks.transition(id, ["running"], { progress: { stage: "backtest", detail, pct: 5 + pct * 0.9 } }, d.now()),
  );
  if (!result) {
    d.log.info("backtest_stopped", { taskId: id });
    return;
  }
  const index = await d.cache.getSeries(u.index);
  const withBench = withBenchmark(result, u.index, index?.bars ?? []);
  await completeTask(d, rec, withBench, backtestNotification(id, withBench));
}
