/**
 * The dead-letter queue's consumer. A dead letter is either our consumer's `{ reason, body, … }`
 * (unknown kind, malformed, permanent failure) or a message the queue moved after `max_retries`.
 * The task it names is marked failed with the reason (conditionally: a finished task stays as it
 * is), its coordinator is stopped and its session told. Every dead letter is acknowledged.
 */
import type { BackgroundDeps } from "./background-deps";
import { failTask } from "./complete-task";
import type { ConsumedBatch } from "./queue-consumer";
import { readDeadLetter } from "./read-dead-letter";
import { coordinatorOf } from "./screen-jobs";

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
