/** Port: reading background tasks (the D1 adapter lives in storage/). */
import type { TaskView } from "../contracts/task";

/** Reads the tasks a user owns. */
export interface TaskReader {
  /** The owner's tasks of one session, newest first. */
  listForSession(ownerId: string, sessionId: string): Promise<TaskView[]>;
  /** One task, or null when it does not exist or belongs to someone else. */
  get(ownerId: string, taskId: string): Promise<TaskView | null>;
}
