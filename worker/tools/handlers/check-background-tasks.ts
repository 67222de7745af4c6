/** Handler of `check_background_tasks`: the session's tasks through the TaskReader port. */
import { err, ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { checkBackgroundTasksSpec } from "../specs/check-background-tasks";

/** Lists the session's tasks (without results, optionally by status), or one task by id with its result (another owner's id is simply not found). */
export const checkBackgroundTasksHandler: ToolHandler<typeof checkBackgroundTasksSpec> = async (input, deps, ctx) => {
  if (input.task_id !== undefined) {
    const task = await deps.tasks.get(ctx.userId, input.task_id);
    if (!task) return err("not_found", `no background task ${input.task_id}`);
    return ok({ tasks: [task], message: `task ${task.id} is ${task.status}` });
  }
  // A listing leaves results out (they can be large): ask for one task_id to read its result.
  const tasks = (await deps.tasks.listForSession(ctx.userId, ctx.sessionId))
    .filter((t) => input.status === undefined || t.status === input.status)
    .map(({ result: _result, ...rest }) => rest);
  const running = tasks.filter((t) => t.status === "queued" || t.status === "running").length;
  const message =
    tasks.length === 0
      ? "no background tasks in this session"
      : `${tasks.length} task(s), ${running} still queued or running`;
  return ok({ tasks, message });
};
