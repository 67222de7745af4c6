/** Background task shape (CONTRACTS.md `GET /api/tasks/:id`), shared by routes, tools and the web. */
import { z } from "zod";

/** Lifecycle of a background task. */
export const TaskStatus = z.enum(["queued", "running", "succeeded", "failed", "cancelled"]);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Where a running task is. */
export const TaskProgress = z.object({ stage: z.string(), detail: z.string(), pct: z.number().min(0).max(100) });
export type TaskProgress = z.infer<typeof TaskProgress>;

/** A task as clients and the model see it. */
export const TaskView = z.object({
  id: z.string(),
  kind: z.string(),
  status: TaskStatus,
  progress: TaskProgress,
  result: z.json().optional(),
  error: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TaskView = z.infer<typeof TaskView>;

/** What a background tool answers at once: the task to watch. */
export const BackgroundAccepted = z.object({
  task_id: z.string(),
  kind: z.string(),
  status: TaskStatus,
  message: z.string(),
});
export type BackgroundAccepted = z.infer<typeof BackgroundAccepted>;
