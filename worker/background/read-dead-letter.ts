/**
 * What a dead letter says: our consumer wraps the original body with a reason; the queue itself
 * moves the raw body after `max_retries`. Either way: the task it names and why it died.
 */
import { z } from "zod";

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
