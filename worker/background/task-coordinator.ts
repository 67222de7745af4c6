/**
 * TaskCoordinator: one Durable Object per fanned-out task. It holds the plan, stores each batch's
 * partial result once (by batch number, so a redelivered batch never double-counts), reports
 * progress, and when the last batch arrives reduces the partials and completes the task exactly once.
 * Cancelling it makes every later batch a no-op. Screenings reduce features; backtests store each
 * batch's per-day rows and replay the portfolio day by day (backtest-partials.ts).
 */
import { DurableObject } from "cloudflare:workers";
import type { Bar } from "../contracts/analysis";
import type { SyncCoverage } from "../contracts/market-sync";
import type { ScreenInput, ScreeningResult } from "../contracts/screening";
import type { DayReplayPlan } from "../engine/backtest/day-replay";
import { reduceFunnel } from "../engine/screen/reduce-funnel";
import type { SymbolFeatures } from "../engine/screen/symbol-features";
import { backgroundDeps } from "./background-deps";
import { createBacktestTables, replayStoredDays, storeBacktestPart, type BacktestBatchPart } from "./backtest-partials";
import { completeTask } from "./complete-task";
import { backtestNotification, screeningHistory, screeningNotification } from "./run-summaries";
import type { Universe } from "./universe";

/** What a screening's coordinator needs to reduce. */
export interface ScreenPlan {
  taskId: string;
  total: number;
  input: ScreenInput;
  universe: Universe;
  index: Bar[];
  smallCap: Bar[];
  notes: string[];
  /** The live market's sync coverage (absent for the simulated market and US). */
  coverage?: SyncCoverage;
}

/** What a backtest's coordinator needs to replay the portfolio. */
export interface BacktestPlan {
  kind: "backtest";
  taskId: string;
  total: number;
  replay: DayReplayPlan;
}

type Plan = ScreenPlan | BacktestPlan;

function isBacktest(plan: Plan): plan is BacktestPlan {
  return "kind" in plan && plan.kind === "backtest";
}

/** Where the coordinator stands. */
export interface CoordinatorState {
  planned: boolean;
  total: number;
  received: number;
  cancelled: boolean;
  finished: boolean;
}

/** Answer to a batch submission. */
export type SubmitAnswer = CoordinatorState & { status: "accepted" | "duplicate" | "cancelled" | "unplanned" };

/** The coordinator Durable Object. Class name = binding name. */
export class TaskCoordinator extends DurableObject<Env> {
  private finalizing = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS partials (batch INTEGER PRIMARY KEY, data TEXT NOT NULL); CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    );
    createBacktestTables(ctx.storage.sql);
  }

  private meta(key: string): string | null {
    const row = this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? row.value : null;
  }

  private setMeta(key: string, value: string): void {
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  }

  private plan(): Plan | null {
    const raw = this.meta("plan");
    return raw ? (JSON.parse(raw) as Plan) : null;
  }

  /** Where it stands. */
  async state(): Promise<CoordinatorState> {
    const plan = this.plan();
    const received = this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM partials").one().n;
    return {
      planned: plan !== null,
      total: plan?.total ?? 0,
      received,
      cancelled: this.meta("cancelled") !== null,
      finished: this.meta("finished") !== null,
    };
  }

  /** True when batch `n` was already stored. */
  async has(batch: number): Promise<boolean> {
    return this.ctx.storage.sql.exec("SELECT 1 FROM partials WHERE batch = ?", batch).toArray().length > 0;
  }

  /** Records the plan; a second call keeps the first plan (a redelivered start). */
  async begin(plan: ScreenPlan): Promise<CoordinatorState> {
    if (!this.plan()) this.setMeta("plan", JSON.stringify(plan));
    return this.state();
  }

  /** Records a backtest's plan; a second call keeps the first plan (a redelivered start). */
  async beginBacktest(plan: Omit<BacktestPlan, "kind">): Promise<CoordinatorState> {
    if (!this.plan()) this.setMeta("plan", JSON.stringify({ ...plan, kind: "backtest" } satisfies BacktestPlan));
    return this.state();
  }

  /** The backtest plan, when this task is a backtest. */
  async backtestPlan(): Promise<DayReplayPlan | null> {
    const plan = this.plan();
    return plan && isBacktest(plan) ? plan.replay : null;
  }

  /** Stops the task: later batches are ignored and it never completes. */
  async cancel(): Promise<CoordinatorState> {
    this.setMeta("cancelled", "1");
    return this.state();
  }

  /** Stores one batch's features (once) and completes the task when it was the last. */
  async submit(batch: number, features: SymbolFeatures[]): Promise<SubmitAnswer> {
    return this.accept(batch, () =>
      this.ctx.storage.sql.exec("INSERT INTO partials (batch, data) VALUES (?, ?)", batch, JSON.stringify(features)),
    );
  }

  /** Stores one backtest batch's per-day rows (once) and replays the portfolio when it was the last. */
  async submitBacktest(batch: number, part: BacktestBatchPart): Promise<SubmitAnswer> {
    return this.accept(batch, () => {
      storeBacktestPart(this.ctx.storage.sql, batch, part);
      this.ctx.storage.sql.exec("INSERT INTO partials (batch, data) VALUES (?, ?)", batch, "{}");
    });
  }

  private async accept(batch: number, store: () => void): Promise<SubmitAnswer> {
    const plan = this.plan();
    const before = await this.state();
    if (!plan) return { ...before, status: "unplanned" };
    if (before.cancelled) return { ...before, status: "cancelled" };
    const fresh = !(await this.has(batch));
    if (fresh) this.ctx.storage.transactionSync(store);
    const now = await this.state();
    const deps = backgroundDeps(this.env);
    if (fresh && !now.finished) {
      const pct = 10 + Math.round((85 * now.received) / Math.max(1, now.total));
      const progress = {
        stage: isBacktest(plan) ? "backtest" : "screening",
        detail: `${now.received}/${now.total} batches`,
        pct,
      };
      await deps.tasks.transition(plan.taskId, ["running"], { progress }, deps.now());
      const rec = await deps.tasks.record(plan.taskId);
      if (rec?.sessionId) await deps.sessions.taskProgress(rec.sessionId, rec.view);
    }
    if (now.received >= now.total && !now.finished && !this.finalizing) {
      this.finalizing = true;
      try {
        await this.finish(plan, deps);
        this.setMeta("finished", "1");
        this.dropPartials();
      } finally {
        this.finalizing = false;
      }
    }
    return { ...(await this.state()), status: fresh ? "accepted" : "duplicate" };
  }

  /**
   * Frees the bulky per-batch data once the task is complete (a full-market backtest stores
   * ~200 MB of day rows); the batch numbers stay, so a redelivered batch is still a duplicate.
   */
  private dropPartials(): void {
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec("UPDATE partials SET data = '{}'");
      this.ctx.storage.sql.exec("DROP TABLE IF EXISTS bt_days");
      this.ctx.storage.sql.exec("DROP TABLE IF EXISTS bt_symbols");
    });
  }

  private async finish(plan: Plan, deps: ReturnType<typeof backgroundDeps>): Promise<void> {
    if (isBacktest(plan)) {
      const result = replayStoredDays(this.ctx.storage.sql, plan.replay);
      const rec = await deps.tasks.record(plan.taskId);
      if (rec) await completeTask(deps, rec, result, backtestNotification(plan.taskId, result));
      return;
    }
    const features: SymbolFeatures[] = [];
    for (const row of this.ctx.storage.sql.exec<{ data: string }>("SELECT data FROM partials ORDER BY batch"))
      features.push(...(JSON.parse(row.data) as SymbolFeatures[]));
    const o = reduceFunnel(features, {
      limit: plan.input.limit,
      index: plan.index,
      ...(plan.smallCap.length > 0 ? { smallCap: plan.smallCap } : {}),
    });
    const result: ScreeningResult = {
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
      ...(plan.coverage ? { coverage: plan.coverage } : {}),
    };
    const rec = await deps.tasks.record(plan.taskId);
    if (!rec) return;
    await completeTask(
      deps,
      rec,
      result,
      screeningNotification(plan.taskId, result),
      screeningHistory(plan.taskId, result),
    );
  }
}
