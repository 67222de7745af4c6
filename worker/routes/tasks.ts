/**
 * Task routes: read one task, list a session's tasks, cancel. Owner-checked (another owner's id is
 * 404); a result spilled to R2 is read back in full. Cancelling stops a fan-out: the coordinator
 * ignores every later batch and the task never completes.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { TaskView } from "../contracts/task";
import type { AppEnv } from "../http/app-env";
import { AppError } from "../lib/app-error";
import type { D1TaskRepo } from "../storage/task-repo";
import { coordinatorsOf } from "../coordinator/background-wiring";

const TaskId = z.string().regex(/^task_[0-9a-z]{26}$/);
const ListQuery = z.object({ session: z.string().min(1).max(64) });

function notFound(id: string): AppError {
  return new AppError("not_found", 404, `task ${id} not found`);
}

async function ownedTask(c: Context<AppEnv>): Promise<{ repo: D1TaskRepo; task: TaskView; resultRef: string | null }> {
  const id = c.req.param("id") ?? "";
  if (!TaskId.safeParse(id).success) throw notFound(id);
  const repo = c.var.deps.tasks;
  const rec = await repo.record(id);
  if (!rec || rec.ownerId !== c.var.userId) throw notFound(id);
  return { repo, task: rec.view, resultRef: rec.resultRef };
}

/** Task routes, mounted at /api/tasks. */
export const taskRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const q = ListQuery.safeParse(c.req.query());
    if (!q.success) throw new AppError("invalid_input", 400, "session: a session id is required (?session=…)");
    const tasks = await c.var.deps.tasks.listForSession(c.var.userId, q.data.session);
    return c.json({ tasks: tasks.map(({ result: _result, ...rest }) => rest) });
  })
  .get("/:id", async (c) => {
    const { task, resultRef } = await ownedTask(c);
    if (!resultRef) return c.json(task);
    const object = await c.env.SPILLS.get(resultRef);
    return c.json(object ? { ...task, result: (await object.json()) as TaskView["result"] } : task);
  })
  .post("/:id/cancel", async (c) => {
    const { repo, task } = await ownedTask(c);
    const applied = await repo.transition(
      task.id,
      ["queued", "running"],
      {
        status: "cancelled",
        progress: { stage: "cancelled", detail: "cancelled by the user", pct: task.progress.pct },
      },
      Date.now(),
    );
    if (!applied)
      throw new AppError(
        "conflict",
        409,
        `task ${task.id} already ${task.status}; only queued or running tasks can be cancelled`,
      );
    await coordinatorsOf(c.env.TaskCoordinator).of(task.id).cancel();
    const after = await repo.get(c.var.userId, task.id);
    return c.json(after ?? task);
  });
