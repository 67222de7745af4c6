/**
 * Back into the session: a finished task is reported with `notify` (recorded once per task id, then
 * a notification turn of its own) and progress with `taskProgress` (a `data-task` part in the running
 * turn). Progress is best effort; a notification failure is retried by the caller.
 */
import { getAgentByName } from "agents";
import type { TaskView } from "../contracts/task";
import type { SessionAgent } from "../session/session-agent";

/** Where sessions live. */
export type SessionNamespace = Env["SessionAgent"];

/** Tells the session a task finished. */
export async function notifySession(
  ns: SessionNamespace,
  sessionId: string,
  taskId: string,
  text: string,
): Promise<void> {
  const stub = await getAgentByName<Env, SessionAgent>(ns, sessionId);
  await stub.notify({ id: taskId, text });
}

/** Shows progress in the session's running turn, if any (errors ignored). */
export async function reportProgress(ns: SessionNamespace, sessionId: string, task: TaskView): Promise<void> {
  try {
    const stub = await getAgentByName<Env, SessionAgent>(ns, sessionId);
    await stub.taskProgress({ ...task });
  } catch {
    // Progress is a courtesy: the task itself goes on.
  }
}
