/**
 * Finishing a task, once: the result goes inline into D1 (or to R2 when large, with a ref), the run's
 * history rows are upserted, then one conditional `running → succeeded` update. The session is told
 * whenever the task stands succeeded — the session records a notification once per task id, so a
 * retried completion never reports twice and a lost notification is sent again.
 */
import type { TaskRecord, TaskWriter } from "../ports/task-store";
import type { Logger } from "../lib/log";
import type { HistoryWriter, NewRecommendation, NewSignal } from "../ports/history-store";
import type { SessionNotifier } from "../ports/session-notifier";
import type { SpillStore } from "../ports/spill-store";

/** Largest result kept inline in D1 (bytes of JSON); larger goes to R2. */
export const INLINE_RESULT_BYTES = 200_000;

/** What completion needs. */
export interface CompletionDeps {
  tasks: TaskWriter;
  history: HistoryWriter;
  /** Where a large result goes (R2 in production). */
  spills: Pick<SpillStore, "put">;
  sessions: SessionNotifier;
  now: () => number;
  log: Logger;
}

/** Rows a run leaves in the history tables. */
export interface RunHistory {
  signals?: NewSignal[];
  recommendations?: NewRecommendation[];
}

/** The R2 key of a spilled result. */
export function resultKey(taskId: string): string {
  return `tasks/${taskId}/result.json`;
}

/** Completes the task with `result`; true when this call (or an earlier one) left it succeeded. */
export async function completeTask(
  d: CompletionDeps,
  rec: TaskRecord,
  result: unknown,
  notification: string,
  history: RunHistory = {},
): Promise<boolean> {
  const id = rec.view.id;
  const json = JSON.stringify(result);
  let inline: unknown = result;
  let ref: string | null = null;
  if (json.length > INLINE_RESULT_BYTES) {
    ref = resultKey(id);
    await d.spills.put(ref, json);
    inline = { spilled: true, bytes: json.length, summary: notification };
  }
  const now = d.now();
  if (history.signals?.length) await d.history.upsertSignals(rec.ownerId, history.signals, now);
  if (history.recommendations?.length) await d.history.addRecommendations(rec.ownerId, history.recommendations, now);
  const applied = await d.tasks.transition(
    id,
    ["running"],
    { status: "succeeded", result: inline, resultRef: ref, progress: { stage: "done", detail: "finished", pct: 100 } },
    now,
  );
  const current = applied ? null : await d.tasks.record(id);
  const succeeded = applied || current?.view.status === "succeeded";
  if (!succeeded) {
    d.log.info("task_complete_skipped", { taskId: id, status: current?.view.status });
    return false;
  }
  if (rec.sessionId) await d.sessions.taskFinished(rec.sessionId, { id, text: notification });
  d.log.info("task_succeeded", { taskId: id, kind: rec.view.kind, spilled: ref !== null, first: applied });
  return true;
}

/** Fails the task with `reason` (only from queued/running) and tells its session. */
export async function failTask(d: CompletionDeps, taskId: string, reason: string): Promise<boolean> {
  const applied = await d.tasks.transition(
    taskId,
    ["queued", "running"],
    { status: "failed", error: reason, progress: { stage: "failed", detail: reason.slice(0, 200), pct: 100 } },
    d.now(),
  );
  const rec = await d.tasks.record(taskId);
  if (rec?.view.status === "failed" && rec.sessionId)
    await d.sessions.taskFinished(rec.sessionId, {
      id: taskId,
      text: `Background task ${taskId} (${rec.view.kind}) failed: ${rec.view.error ?? reason}`,
    });
  d.log.warn("task_failed", { taskId, reason, first: applied });
  return applied;
}
