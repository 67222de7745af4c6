/**
 * TaskCoordinator: one Durable Object per fanned-out task. It holds the plan, stores each batch's
 * partial result once (by batch number, so a redelivered batch never double-counts), reports
 * progress, and when the last batch arrives reduces the partials and completes the task exactly once.
 * Cancelling it makes every later batch a no-op. This host (edge) keeps the storage; the progress
 * and reduce steps are application code (background/finish-fan-out.ts) over its stored partials.
 */
import { DurableObject } from "cloudflare:workers";
import type {
  BacktestBatchPart,
  BacktestPlan,
  CoordinatorPlan,
  CoordinatorState,
  ScreenPlan,
  SubmitAnswer,
  TaskCoordinator as TaskCoordinatorPort,
} from "../background/coordinator-port";
import { isBacktestPlan } from "../background/coordinator-port";
import { finishFanOut, recordBatchProgress } from "../background/finish-fan-out";
import type { DayReplayPlan } from "../engine/backtest/day-replay";
import type { SymbolFeatures } from "../engine/screen/symbol-features";
import { backgroundDeps } from "./background-wiring";
import { createBacktestTables, storedBacktestDays, storeBacktestPart } from "./backtest-partials";

type Plan = CoordinatorPlan;

/** The coordinator Durable Object. Class name = binding name. */
export class TaskCoordinator extends DurableObject<Env> implements TaskCoordinatorPort {
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
    return plan && isBacktestPlan(plan) ? plan.replay : null;
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
    if (fresh && !now.finished) await recordBatchProgress(deps, plan, now);
    if (now.received >= now.total && !now.finished && !this.finalizing) {
      this.finalizing = true;
      try {
        await finishFanOut(deps, plan, this.partials());
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

  /** The stored partials, for the reduce step. */
  private partials() {
    const sql = this.ctx.storage.sql;
    return {
      features(): SymbolFeatures[] {
        const features: SymbolFeatures[] = [];
        for (const row of sql.exec<{ data: string }>("SELECT data FROM partials ORDER BY batch"))
          features.push(...(JSON.parse(row.data) as SymbolFeatures[]));
        return features;
      },
      backtest: storedBacktestDays(sql),
    };
  }
}
