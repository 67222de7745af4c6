/**
 * Shared body of the background tools: submit the job through the `BackgroundTasks` port and answer
 * the task id at once. The result comes back later as a session notification.
 */
import type { BackgroundAccepted } from "../../contracts/task";
import { err, ok, type Result } from "../../lib/result";
import type { BackgroundKind } from "../../ports/background";
import type { ToolContext, ToolDeps } from "../deps";

/** Submits `input` as a `kind` task of the calling session. */
export async function submitBackground(
  kind: BackgroundKind,
  input: unknown,
  deps: ToolDeps,
  ctx: ToolContext,
): Promise<Result<BackgroundAccepted>> {
  try {
    const submitted = await deps.background.submit({ kind, input, ownerId: ctx.userId, sessionId: ctx.sessionId });
    if (!submitted.ok) return submitted;
    const { task } = submitted.value;
    return ok({
      task_id: task.id,
      kind,
      status: task.status,
      message: `${kind} started in the background as ${task.id}; the result will arrive as a system notification. The conversation can go on meanwhile.`,
    });
  } catch (error) {
    return err(
      "upstream_unavailable",
      `could not start ${kind}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
