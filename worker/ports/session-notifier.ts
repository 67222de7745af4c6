/**
 * Port: how background work reaches a session — a finished (or failed) task is reported once per
 * task id and becomes a notification turn; progress shows in the running turn. The Durable Object
 * adapter lives in session/, so background code never imports the session.
 */
import type { TaskView } from "../contracts/task";

/** Background → session messages. */
export interface SessionNotifier {
  /**
   * Tells the session task `note.id` finished with `note.text`. The session records it once per task
   * id, so a repeat is harmless; a failure throws and the caller retries.
   */
  taskFinished(sessionId: string, note: { id: string; text: string }): Promise<void>;
  /** Shows `task`'s progress in the session's running turn, if any. Best effort: never throws. */
  taskProgress(sessionId: string, task: TaskView): Promise<void>;
}
