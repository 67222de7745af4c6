/**
 * The `task.run` queue message and the queue as producers use it: shared by the producer (the
 * background port) and the consumer (run-task.ts), which otherwise do not import each other.
 */
import { z } from "zod";

/** The message that starts a task. */
export const RunTaskMessage = z.object({ kind: z.literal("task.run"), taskId: z.string().min(1).max(64) });
export type RunTaskMessage = z.infer<typeof RunTaskMessage>;

/** The background queue as producers use it (structurally a Workers `Queue` producer). */
export interface BackgroundQueue {
  send(body: unknown): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: unknown }>): Promise<unknown>;
}
