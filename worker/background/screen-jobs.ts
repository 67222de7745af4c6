/**
 * The screening's queue work: `task.run` plans it (L0 universe, index bars, batches of symbols),
 * records the plan with the task's coordinator and fans the batches out on the queue; each
 * `screen.batch` computes its symbols' features and hands them to the coordinator, which completes
 * the task when the last batch is in. Batches of a cancelled or finished task are no-ops.
 */
import type { z } from "zod";
import type { Bar } from "../contracts/analysis";
import { ScreenInput } from "../contracts/screening";
import type { TaskRecord } from "../ports/task-store";
import type { BackgroundDeps } from "./background-deps";
import { batchMessage, fanOutBatches } from "./fan-out";
import { completeTask } from "./complete-task";
import { PermanentError, RetryableError, type QueueHandler } from "./queue-consumer";
import { screenFeatures, SCREEN_WINDOW } from "./screen-features";
import type { ScreenPlan, TaskCoordinator } from "./coordinator-port";
import { inUniverse, universeCoverage } from "./market-sync/sync-gate";
import { boardFilter, emptyScreening, noCachedStocksNote, universeFor, type Universe } from "./universe";

/** A fan-out batch message. */
export const ScreenBatchMessage = batchMessage("screen.batch");
export type ScreenBatchMessage = z.infer<typeof ScreenBatchMessage>;

async function indexBars(d: BackgroundDeps, u: Universe): Promise<{ index: Bar[]; smallCap: Bar[] }> {
  const [main, small] = await Promise.all([
    d.cache.getSeries(u.index),
    u.smallCap ? d.cache.getSeries(u.smallCap) : Promise.resolve(null),
  ]);
  return { index: (main?.bars ?? []).slice(-SCREEN_WINDOW), smallCap: (small?.bars ?? []).slice(-SCREEN_WINDOW) };
}

/** The coordinator stub of a task. */
export function coordinatorOf(d: Pick<BackgroundDeps, "coordinators">, taskId: string): TaskCoordinator {
  return d.coordinators.of(taskId);
}

/** Plans a screening and fans its batches out (idempotent: the coordinator keeps the first plan). */
export async function startScreening(d: BackgroundDeps, rec: TaskRecord): Promise<void> {
  const parsed = ScreenInput.safeParse(rec.input);
  if (!parsed.success)
    throw new PermanentError(`invalid screen_stocks input: ${parsed.error.issues[0]?.message ?? "?"}`);
  const input = parsed.data;
  const u = universeFor(d.config.marketData, input.market);
  const gate = await universeCoverage(d.sync, u);
  if ("refused" in gate) {
    await completeTask(
      d,
      rec,
      emptyScreening(input, u, [gate.refused]),
      `Screening ${rec.view.id} refused: ${gate.refused}`,
    );
    return;
  }
  const symbols = boardFilter(inUniverse(gate, await d.cache.listSymbols(u.code, "stock")), input.board);
  if (symbols.length === 0) {
    const note = noCachedStocksNote(u, input.board, d.config.marketData);
    await completeTask(
      d,
      rec,
      emptyScreening(input, u, [note]),
      `Screening ${rec.view.id} found nothing to scan: ${note}`,
    );
    return;
  }
  const { index, smallCap } = await indexBars(d, u);
  const total = Math.ceil(symbols.length / d.batchSize);
  const notes = u.simulated ? ["Simulated market (SIM): generated data, not real securities."] : [];
  if (index.length === 0) notes.push(`index ${u.index} not cached: regime assumed neutral, no relative strength`);
  if (gate.coverage) notes.unshift(`Coverage: ${gate.coverage.statement} (market sync).`);
  const plan: ScreenPlan = {
    taskId: rec.view.id,
    total,
    input,
    universe: u,
    index,
    smallCap,
    notes,
    ...(gate.coverage ? { coverage: gate.coverage } : {}),
  };
  const state = await coordinatorOf(d, rec.view.id).begin(plan);
  if (state.cancelled || state.finished) return;
  await fanOutBatches(d, rec.view.id, "screen.batch", symbols, total);
}

/** The `screen.batch` handler. */
export function createScreenBatchHandler(d: BackgroundDeps): QueueHandler {
  return async (body) => {
    const parsed = ScreenBatchMessage.safeParse(body);
    if (!parsed.success) throw new PermanentError("malformed screen.batch message");
    const msg = parsed.data;
    const coordinator = coordinatorOf(d, msg.taskId);
    const state = await coordinator.state();
    if (!state.planned) throw new RetryableError(`task ${msg.taskId} has no plan yet`);
    if (state.cancelled || state.finished || (await coordinator.has(msg.batch))) return;
    const rec = await d.tasks.record(msg.taskId);
    if (!rec) throw new PermanentError(`no task ${msg.taskId}`);
    const input = ScreenInput.parse(rec.input);
    const u = universeFor(d.config.marketData, input.market);
    const { index } = await indexBars(d, u);
    const features = await screenFeatures(d.cache, msg.symbols, u, index);
    await coordinator.submit(msg.batch, features);
  };
}
