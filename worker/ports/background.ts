/**
 * Port: background work as tools see it — submit a job (it runs on the queue; the call returns the
 * task at once) and read the stored runs (`query_history`). The Queues/D1 adapter lives in background/.
 */
import type { HistoryQuery, HistoryResult } from "../contracts/history";
import type { TaskView } from "../contracts/task";
import type { Result } from "../lib/result";

/** Kinds of background jobs. */
export type BackgroundKind = "screen_stocks" | "run_backtest" | "generate_ai_report" | "generate_strategy_decision";

/** A job to start. `input` is already validated by the tool's schema. */
export interface BackgroundSubmission {
  kind: BackgroundKind;
  input: unknown;
  ownerId: string;
  /** The session to report into (null for webhook/cron runs without one). */
  sessionId: string | null;
  /** Same key → same task, nothing new queued (webhook ids, cron days). */
  idempotencyKey?: string;
}

/** Background jobs and their stored runs. */
export interface BackgroundTasks {
  /**
   * Records the task and queues it; answers the task (already existing when the key was seen).
   * Fails with `rate_limited` over the owner's hourly task limit.
   */
  submit(job: BackgroundSubmission): Promise<Result<{ task: TaskView; created: boolean }>>;
  /** Stored runs of the owner. */
  history(ownerId: string, query: HistoryQuery): Promise<HistoryResult>;
}
