/**
 * The reduce step of a fanned-out task, run by its coordinator once the last batch is in: a
 * screening's features reduced through the funnel, or a backtest's stored days replayed as a
 * portfolio one calendar day at a time (the coordinator never holds more than a day of rows).
 * The coordinator supplies its stored partials; completion goes through `completeTask`.
 */
import type { ScreeningResult } from "../contracts/screening";
import type { BacktestResult } from "../contracts/backtest";
import { createDayReplay, type DayReplayPlan } from "../engine/backtest/day-replay";
import type { DayRow } from "../engine/backtest/symbol-days";
import { reduceFunnel } from "../engine/screen/reduce-funnel";
import type { SymbolFeatures, SymbolMeta } from "../engine/screen/symbol-features";
import { withBenchmark } from "./backtest-extras";
import { completeTask, type CompletionDeps } from "./complete-task";
import { isBacktestPlan, type CoordinatorPlan, type ScreenPlan } from "./coordinator-port";
import { backtestNotification, screeningHistory, screeningNotification } from "./run-summaries";
import { indexOfUniverse } from "./universe";

/** A backtest's stored partials, read in batch order (so rows keep universe order). */
export interface StoredBacktestDays {
  /** Each batch's symbols, batches in order. */
  symbols(): Iterable<{ batch: number; metas: SymbolMeta[] }>;
  /** Day `k` of every batch that has it, batches in order. */
  day(k: number): Iterable<{ batch: number; eligible: number; above: number; rows: DayRow[] }>;
}

/** What a coordinator hands the reduce step. */
export interface StoredPartials {
  /** A screening's features, batches in order. */
  features(): SymbolFeatures[];
  backtest: StoredBacktestDays;
}

/** Replays the portfolio over the stored days. */
export function replayStoredDays(stored: StoredBacktestDays, plan: DayReplayPlan): BacktestResult {
  const metas: SymbolMeta[] = [];
  const offset = new Map<number, number>();
  for (const part of stored.symbols()) {
    offset.set(part.batch, metas.length);
    metas.push(...part.metas);
  }
  const metaOf = (sym: number): SymbolMeta => {
    const m = metas[sym];
    if (!m) throw new Error(`no symbol ${sym} in the backtest partials`);
    return m;
  };
  const replay = createDayReplay(plan);
  for (let k = plan.startK; k <= plan.endK; k++) {
    let eligible = 0;
    let above = 0;
    const rows: DayRow[] = [];
    for (const part of stored.day(k)) {
      const base = offset.get(part.batch) ?? 0;
      eligible += part.eligible;
      above += part.above;
      for (const row of part.rows) {
        row[0] += base;
        rows.push(row);
      }
    }
    replay.day(k, eligible, above, rows, metaOf);
  }
  return withBenchmark(replay.result(metas.length), indexOfUniverse(plan.label), plan.index);
}

/** A screening's result from its plan and every batch's features. */
export function screeningResult(plan: ScreenPlan, features: readonly SymbolFeatures[]): ScreeningResult {
  const o = reduceFunnel(features, {
    limit: plan.input.limit,
    index: plan.index,
    ...(plan.smallCap.length > 0 ? { smallCap: plan.smallCap } : {}),
  });
  return {
    ok: true,
    market: plan.input.market,
    board: plan.input.board,
    universe: plan.universe.code,
    asOf: o.asOf,
    simulated: plan.universe.simulated,
    regime: { state: o.regime.state, reasons: o.regime.reasons, breadthAboveMa20Pct: o.breadthAboveMa20Pct },
    summary: o.summary,
    rejections: o.rejections,
    trigger_groups: o.triggerGroups,
    top_sectors: o.topSectors,
    candidates: o.candidates,
    symbols_for_report: o.symbolsForReport,
    notes: [...plan.notes, ...o.notes],
  };
}

/** Reduces the task's partials and completes it (once: completion is conditional on `running`). */
export async function finishFanOut(d: CompletionDeps, plan: CoordinatorPlan, stored: StoredPartials): Promise<void> {
  const rec = await d.tasks.record(plan.taskId);
  if (isBacktestPlan(plan)) {
    const result = replayStoredDays(stored.backtest, plan.replay);
    if (rec) await completeTask(d, rec, result, backtestNotification(plan.taskId, result));
    return;
  }
  const result = screeningResult(plan, stored.features());
  if (!rec) return;
  await completeTask(d, rec, result, screeningNotification(plan.taskId, result), screeningHistory(plan.taskId, result));
}

/** Moves the task's progress after a fresh batch (10 % at fan-out to 95 % at the last batch) and shows it in its session. */
export async function recordBatchProgress(
  d: CompletionDeps,
  plan: CoordinatorPlan,
  state: { received: number; total: number },
): Promise<void> {
  const pct = 10 + Math.round((85 * state.received) / Math.max(1, state.total));
  const progress = {
    stage: isBacktestPlan(plan) ? "backtest" : "screening",
    detail: `${state.received}/${state.total} batches`,
    pct,
  };
  await d.tasks.transition(plan.taskId, ["running"], { progress }, d.now());
  const rec = await d.tasks.record(plan.taskId);
  if (rec?.sessionId) await d.sessions.taskProgress(rec.sessionId, rec.view);
}
