/**
 * The background queue's consumer. Each message is `{ kind, ... }`; a handler per kind does the
 * work. Rules: success → ack; `RetryableError` or an unexpected throw → retry with exponential
 * backoff (the queue moves it to the dead-letter queue after `max_retries`); a malformed message,
 * an unknown kind or a `PermanentError` → sent to the dead-letter queue at once and acked. One bad
 * message never fails the batch.
 */
import { z } from "zod";
import type { Logger } from "../lib/log";

/** The envelope every background message has. */
export const QueueMessageBody = z.looseObject({ kind: z.string().min(1) });
export type QueueMessageBody = z.infer<typeof QueueMessageBody>;

/** Thrown by a handler for a failure worth retrying (upstream down, rate limited). */
export class RetryableError extends Error {}
/** Thrown by a handler for a failure no retry will fix (bad payload, missing task). */
export class PermanentError extends Error {}

/** Does the work of one message kind. */
export type QueueHandler = (body: QueueMessageBody, ctx: { attempts: number; log: Logger }) => Promise<void>;

/** What a dead-lettered message carries: the original body plus why. */
export interface DeadLetter {
  reason: string;
  queue: string;
  body: unknown;
  attempts: number;
}

/** Backoff before the n-th retry: 2, 4, 8 … seconds, at most 5 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(2 ** Math.max(1, attempts), 300);
}

/** The part of a queue message the consumer uses (structurally a Workers `Message`). */
export interface ConsumedMessage {
  readonly id: string;
  readonly attempts: number;
  readonly body: unknown;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/** The part of a batch the consumer uses (structurally a Workers `MessageBatch`). */
export interface ConsumedBatch {
  readonly queue: string;
  readonly messages: readonly ConsumedMessage[];
}

/** Where dead letters go (structurally a Workers `Queue` producer). */
export interface DeadLetterSink {
  send(message: DeadLetter): Promise<unknown>;
}

/** Builds the consumer for a set of handlers. */
export function createQueueConsumer(handlers: Readonly<Record<string, QueueHandler>>) {
  return async function consume(batch: ConsumedBatch, deadLetters: DeadLetterSink, log: Logger): Promise<void> {
    for (const message of batch.messages) {
      const deadLetter = async (reason: string): Promise<void> => {
        log.warn("queue_dead_letter", { queue: batch.queue, id: message.id, reason });
        await deadLetters.send({ reason, queue: batch.queue, body: message.body, attempts: message.attempts });
        message.ack();
      };
      const parsed = QueueMessageBody.safeParse(message.body);
      if (!parsed.success) {
        await deadLetter("malformed message: expected an object with a string `kind`");
        continue;
      }
      const handler = handlers[parsed.data.kind];
      if (!handler) {
        await deadLetter(`unknown message kind: ${parsed.data.kind}`);
        continue;
      }
      try {
        await handler(parsed.data, { attempts: message.attempts, log });
        message.ack();
      } catch (error) {
        if (error instanceof PermanentError) {
          await deadLetter(`permanent failure: ${error.message}`);
        } else {
          log.warn("queue_retry", { id: message.id, kind: parsed.data.kind, attempts: message.attempts, error });
          message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
        }
      }
    }
  };
}
