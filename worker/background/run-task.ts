/**
 * The `task.run` message: starts any background task. A task that is no longer queued or running
 * (a redelivery after completion, a cancel) is acknowledged without work; a missing task or an input
 * that does not parse is a permanent failure (dead-lettered, then marked failed with the reason).
 */
import type { BackgroundDeps } from "./background-deps";
import { runBacktestJob } from "./backtest-job";
import { PermanentError, type QueueHandler } from "./queue-consumer";
import { runReportJob, runStrategyJob } from "./report-jobs";
import { startScreening } from "./screen-jobs";
import { RunTaskMessage } from "./task-message";

/** The `task.run` handler. */
export function createRunTaskHandler(d: BackgroundDeps): QueueHandler {
  return async (body, ctx) => {
    const parsed = RunTaskMessage.safeParse(body);
    if (!parsed.success) throw new PermanentError("task.run message without a taskId");
    const rec = await d.tasks.record(parsed.data.taskId);
    if (!rec) throw new PermanentError(`no task ${parsed.data.taskId}`);
    const status = rec.view.status;
    if (status !== "queued" && status !== "running") {
      ctx.log.info("task_run_skipped", { taskId: rec.view.id, status });
      return;
    }
    await d.tasks.countAttempt(rec.view.id, d.now());
    const started = await d.tasks.transition(
      rec.view.id,
      ["queued", "running"],
      { status: "running", progress: { stage: "starting", detail: `attempt ${ctx.attempts}`, pct: 2 } },
      d.now(),
    );
    if (!started) return;
    switch (rec.view.kind) {
      case "screen_stocks":
        return startScreening(d, rec);
      case "run_backtest":
        return runBacktestJob(d, rec);
      case "generate_ai_report":
        return runReportJob(d, rec);
      case "generate_strategy_decision":
        return runStrategyJob(d, rec);
      default:
        throw new PermanentError(`unknown task kind ${rec.view.kind}`);
    }
  };
}
