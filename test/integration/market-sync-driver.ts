/**
 * Drives the market sync's queue by hand inside workerd (tests and the bench): each delivery is a
 * fresh consumer invocation with fresh deps, as in production; up to 4 messages per delivery
 * (wrangler.toml's `max_batch_size`); a retried message comes back with one more attempt; `drain`
 * delivers until the queue is empty. Counts every message sent, for the bench's figures.
 */
import { createQueueConsumer, type ConsumedMessage, type DeadLetter } from "../../worker/background/queue-consumer";
import { createLogger } from "../../worker/lib/log";
import type { SyncDeps } from "../../worker/background/market-sync/sync-jobs";
import { createSyncHandlers, syncDeps } from "../../worker/market/sync/sync-wiring";

/** A hand-driven sync queue over `env`. */
export function syncQueueDriver(env: Env, over: Partial<SyncDeps> = {}) {
  const silent = createLogger(() => {});
  const pending: { body: unknown; attempts: number }[] = [];
  const dead: DeadLetter[] = [];
  let sent = 0;
  const queue = {
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const m of messages) {
        pending.push({ body: m.body, attempts: 1 });
        sent += 1;
      }
    },
  };
  const deps = (): SyncDeps => syncDeps(env, { queue, sleep: async () => {}, log: silent, ...over });
  async function deliverSome(max: number): Promise<number> {
    const take = pending.splice(0, Math.min(max, 4));
    const messages: ConsumedMessage[] = take.map((m) => ({
      id: crypto.randomUUID(),
      attempts: m.attempts,
      body: m.body,
      ack: () => {},
      retry: () => void pending.push({ body: m.body, attempts: m.attempts + 1 }),
    }));
    await createQueueConsumer(createSyncHandlers(deps()))(
      { queue: "wyckoff-edge-market-sync", messages },
      { send: async (d: DeadLetter) => void dead.push(d) },
      silent,
    );
    return take.length;
  }
  return {
    pending,
    dead,
    /** Messages the sync itself sent so far. */
    sent: () => sent,
    send: (body: unknown) => void pending.push({ body, attempts: 1 }),
    deliverSome,
    async drain(limit = Number.POSITIVE_INFINITY): Promise<number> {
      let n = 0;
      while (pending.length > 0 && n < limit) n += await deliverSome(limit - n);
      return n;
    },
  };
}
