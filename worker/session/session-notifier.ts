/**
 * The `SessionNotifier` port over the session Durable Objects: a finished task goes to `notify`
 * (recorded once per task id, then a notification turn of its own) and progress to `taskProgress`
 * (a `data-task` part in the running turn). Progress is best effort; a notification failure is
 * retried by the caller.
 */
import type { TaskView } from "../contracts/task";
import type { SessionNotifier } from "../ports/session-notifier";
import { sessionStub } from "./session-stub";

/** Where sessions live. */
export type SessionNamespace = Env["SessionAgent"];

/** The notifier over `ns`. */
export function createSessionNotifier(ns: SessionNamespace): SessionNotifier {
  return {
    async taskFinished(sessionId: string, note: { id: string; text: string }): Promise<void> {
      const stub = sessionStub(ns, sessionId);
      await stub.notify({ id: note.id, text: note.text });
    },
    async taskProgress(sessionId: string, task: TaskView): Promise<void> {
      try {
        const stub = sessionStub(ns, sessionId);
        await stub.taskProgress({ ...task });
      } catch {
        // Progress is a courtesy: the task itself goes on.
      }
    },
  };
}
