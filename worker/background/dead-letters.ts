/**
 * The dead-letter queue's consumer. A dead letter is either our consumer's `{ reason, body, … }`
 * (unknown kind, malformed, permanent failure) or a message the queue moved after `max_retries`.
 * The task it names is marked failed with the reason (conditionally: a finished task stays as it
 * is), its coordinator is stopped and its session told. Every dead letter is acknowledged.
 */
import { z } from "zod";
import type { BackgroundDeps } from "./background-deps";
import { failTask } from "./complete-task";
import type { ConsumedBatch } from "./queue-consumer";
import { coordinatorOf } from "./screen-jobs";

const Named = z.looseObject({ taskId: z.string().min(1), kind: z.string().optional() });
const Wrapped = z.looseObject({ reason: z.string(), body: z.unknown(), attempts: z.number().optional() });

/** The task id and failure reason a dead letter carries. */
export function readDeadLetter(body: unknown): { taskId: string | null; reason: string } {
  const wrapped = Wrapped.safeParse(body);
  const inner = wrapped.success ? wrapped.data.body : body;
  const named = Named.safeParse(inner);
  const kind = named.success ? named.data.kind : undefined;
  const reason = wrapped.success
    ? wrapped.data.reason
    : `gave up after repeated failures${kind ? ` of ${kind}` : ""} (retries exhausted)`;
  return { taskId: named.success ? named.data.taskId : null, reason };
}

/** Consumes a batch of dead letters. */
export async function consumeDeadLetters(batch: ConsumedBatch, d: BackgroundDeps): Promise<void> {
  for (const message of batch.messages) {
    const { taskId, reason } = readDeadLetter(message.body);
    try {
      if (taskId) {
        await coordinatorOf(d, taskId).cancel();
        await failTask(d, taskId, reason);
      } else d.log.warn("dead_letter_without_task", { reason });
      message.ack();
    } catch (error) {
      d.log.error("dead_letter_failed", { taskId, error });
      message.retry({ delaySeconds: 5 });
    }
  }
}
