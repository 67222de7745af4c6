/** Port: reading and writing background tasks (the D1 adapter lives in storage/). */
import type { TaskProgress, TaskStatus, TaskView } from "../contracts/task";

/** Reads the tasks a user owns. */
export interface TaskReader {
  /** The owner's tasks of one session, newest first. */
  listForSession(ownerId: string, sessionId: string): Promise<TaskView[]>;
  /** One task, or null when it does not exist or belongs to someone else. */
  get(ownerId: string, taskId: string): Promise<TaskView | null>;
}

/** A task with the fields only the workers see. */
export interface TaskRecord {
  view: TaskView;
  ownerId: string;
  sessionId: string | null;
  input: unknown;
  resultRef: string | null;
  attempts: number;
}

/** A new task. */
export interface NewTask {
  id: string;
  kind: string;
  ownerId: string;
  sessionId: string | null;
  input: unknown;
  idempotencyKey?: string;
  now: number;
}

/** Changes applied by a status transition. */
export interface TaskPatch {
  status?: TaskStatus;
  progress?: TaskProgress;
  result?: unknown;
  resultRef?: string | null;
  error?: string | null;
}

/** Writes tasks. Every status change is conditional on the current status, so redeliveries cannot double-write. */
export interface TaskWriter {
  /** Inserts the task, or returns the one already holding `idempotencyKey` (`created: false`). */
  create(task: NewTask): Promise<{ record: TaskRecord; created: boolean }>;
  /** Any owner's task (workers only). */
  record(taskId: string): Promise<TaskRecord | null>;
  /** Applies `patch` only while the status is one of `from`; true when it applied. */
  transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatch, now: number): Promise<boolean>;
  /** Counts a delivery attempt. */
  countAttempt(taskId: string, now: number): Promise<void>;
}
