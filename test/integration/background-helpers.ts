/**
 * Shared by the background workers tests: the offline market seed, task reads, signed webhooks, and
 * deps whose queue producer captures messages so a test drives the consumer by hand.
 */
import { Webhook } from "standardwebhooks";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import type { BackgroundDeps } from "../../worker/background/background-deps";
import { backgroundDeps } from "../../worker/coordinator/background-wiring";
import { createBackgroundPort } from "../../worker/background/background-port";
import { createBackgroundHandlers } from "../../worker/background/handlers";
import { createQueueConsumer, type ConsumedMessage, type DeadLetter } from "../../worker/background/queue-consumer";
import type { TaskView } from "../../worker/contracts/task";
import { createLogger } from "../../worker/lib/log";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import type { BackgroundKind } from "../../worker/ports/background";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { call, eventually } from "./turn-helpers";
import { testEnv } from "./test-env";
export const SECRET = `whsec_${btoa("wyckoff-edge-test-secret-0123456789")}`;
export const cache = new D1MarketCache(createDb(testEnv.DB));
export const silent = createLogger(() => {});
/** Loads the offline bundle (symbols and every series) into the market cache. */
export async function seedOfflineMarket(): Promise<void> {
  const bundle = buildOfflineBundle({ sp500Csv });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series) await cache.putSeries(s);
}
export async function getTask(id: string): Promise<TaskView & { result?: unknown }> {
  return (await (await call(`/api/tasks/${id}`)).json()) as TaskView;
}

export async function finished(id: string, ms = 20_000): Promise<TaskView> {
  return eventually(async () => {
    const t = await getTask(id);
    return t.status === "queued" || t.status === "running" ? undefined : t;
  }, ms);
}

export async function taskCount(): Promise<number> {
  return (await createDb(testEnv.DB).select().from(tasksTable)).length;
}

/** A webhook request signed by the standardwebhooks library (or tampered with by `mutate`). */
export function signed(
  body: unknown,
  o: { id?: string; at?: Date; secret?: string; drop?: string } = {},
): { headers: Record<string, string>; body: string } {
  const text = JSON.stringify(body);
  const id = o.id ?? `msg_${crypto.randomUUID()}`;
  const at = o.at ?? new Date();
  const signature = new Webhook(o.secret ?? SECRET).sign(id, at, text);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
  if (o.drop) delete headers[o.drop];
  return { headers, body: text };
}

export async function webhook(req: { headers: Record<string, string>; body: string }, secret = SECRET) {
  const env = { ...testEnv, WEBHOOK_SECRET: secret };
  return createApp().request(
    "http://wyckoff.test/api/webhooks/screenings",
    { method: "POST", headers: req.headers, body: req.body },
    env,
  );
}

/** Deps whose queue producer captures messages instead of sending them (drives handlers by hand). */
export function capturing(over: Partial<BackgroundDeps> = {}): { deps: BackgroundDeps; sent: unknown[] } {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as BackgroundDeps["queue"];
  return { deps: backgroundDeps(testEnv, { queue, log: silent, ...over }), sent };
}

/** Runs one message through the consumer; answers what the consumer did with it. */
export async function deliver(deps: BackgroundDeps, body: unknown, attempts = 1) {
  const outcome = { acked: false, retried: false, dead: [] as DeadLetter[] };
  const message: ConsumedMessage = {
    id: crypto.randomUUID(),
    attempts,
    body,
    ack: () => void (outcome.acked = true),
    retry: () => void (outcome.retried = true),
  };
  await createQueueConsumer(createBackgroundHandlers(deps))(
    { queue: "wyckoff-edge-background", messages: [message] },
    { send: async (d: DeadLetter) => void outcome.dead.push(d) },
    silent,
  );
  return outcome;
}

export async function submit(
  deps: BackgroundDeps,
  kind: BackgroundKind,
  input: unknown,
  sessionId: string | null = null,
) {
  const r = await createBackgroundPort(deps).submit({ kind, input, ownerId: "local", sessionId });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.task.id;
}
