/**
 * What background jobs need from a fanned-out task's coordinator (application-side port): the plan
 * it keeps, the batches it has received, and the batch hand-in that completes the task once the
 * last batch is in. The Durable Object that implements it lives in coordinator/ (edge).
 */
import type { Bar } from "../contracts/analysis";
import type { ScreenInput } from "../contracts/screening";
import type { DayReplayPlan } from "../engine/backtest/day-replay";
import type { DayRow } from "../engine/backtest/symbol-days";
import type { SymbolFeatures, SymbolMeta } from "../engine/screen/symbol-features";
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
}

/** What a backtest's coordinator needs to replay the portfolio. */
export interface BacktestPlan {
  kind: "backtest";
  taskId: string;
  total: number;
  replay: DayReplayPlan;
}

/** A coordinator's plan: a screening's or a backtest's. */
export type CoordinatorPlan = ScreenPlan | BacktestPlan;

/** True for a backtest's plan. */
export function isBacktestPlan(plan: CoordinatorPlan): plan is BacktestPlan {
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

/** One replay day of a batch: symbols past warm-up, how many above MA20, the L1 rows (local symbol numbers). */
export interface BacktestDay {
  k: number;
  eligible: number;
  above: number;
  rows: DayRow[];
}

/** What a backtest batch hands its coordinator. */
export interface BacktestBatchPart {
  /** The batch's symbols with enough history, in universe order (row symbol numbers index these). */
  metas: SymbolMeta[];
  days: BacktestDay[];
}

/** One task's coordinator. */
export interface TaskCoordinator {
  state(): Promise<CoordinatorState>;
  /** True when batch `batch` was already stored. */
  has(batch: number): Promise<boolean>;
  /** Records a screening's plan; a second call keeps the first plan (a redelivered start). */
  begin(plan: ScreenPlan): Promise<CoordinatorState>;
  /** Records a backtest's plan; a second call keeps the first plan. */
  beginBacktest(plan: Omit<BacktestPlan, "kind">): Promise<CoordinatorState>;
  /** The backtest plan, when the task is a backtest. */
  backtestPlan(): Promise<DayReplayPlan | null>;
  /** Stops the task: later batches are ignored and it never completes. */
  cancel(): Promise<CoordinatorState>;
  /** Stores one screening batch's features (once); the last one completes the task. */
  submit(batch: number, features: SymbolFeatures[]): Promise<SubmitAnswer>;
  /** Stores one backtest batch's per-day rows (once); the last one replays the portfolio. */
  submitBacktest(batch: number, part: BacktestBatchPart): Promise<SubmitAnswer>;
}

/** The coordinators, one per task id. */
export interface TaskCoordinators {
  of(taskId: string): TaskCoordinator;
}
