/** `check_background_tasks`: status of the session's background tasks (screening, backtests, reports). */
import { z } from "zod";
import { TaskStatus, TaskView } from "../../contracts/task";
import { defineToolSpec } from "./define";

/** The `check_background_tasks` tool. */
export const checkBackgroundTasksSpec = defineToolSpec({
  name: "check_background_tasks",
  title: { zh: "查看后台任务", en: "Check background tasks" },
  description:
    "Lists this session's background tasks (screening, backtests, reports) with status and progress, or one task by task_id with its full result when finished (listings leave results out). Use when the user asks whether a long job is done, or after a [SYSTEM NOTIFICATION] about a task.",
  input: z.object({
    task_id: z.string().min(1).max(64).optional().describe("one task id (with its result); omit for all"),
    status: TaskStatus.optional().describe("only tasks in this status (listing only)"),
  }),
  output: z.object({ tasks: z.array(TaskView), message: z.string() }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
