/**
 * Worker entry: wiring only. HTTP goes to the Hono app; queue batches to the background consumer
 * (or, for the dead-letter queue, to the dead-letter consumer; for the market-sync queue, to the
 * sync's handlers); the Cron Triggers start the market sync, the tail-buy job, the daily screening
 * and the daily memory pruning.
 */
import { createApp } from "./app";
import { consoleSink } from "./console-sink";
import { createBackgroundPort } from "./background/background-port";
import { startDailyScreening } from "./background/daily-screening";
import { consumeDeadLetters } from "./background/dead-letters";
import { createBackgroundHandlers } from "./background/handlers";
import { createQueueConsumer } from "./background/queue-consumer";
import { MEMORY_PRUNING_CRON, pruneMemories } from "./background/prune-memories";
import { backgroundDeps } from "./coordinator/background-wiring";
import { loadConfig } from "./config";
import { createLogger } from "./lib/log";
import {
  createSyncHandlers,
  MARKET_SYNC_CRON,
  MARKET_SYNC_QUEUE,
  US_SYNC_CRON,
  settleSyncDeadLetter,
  syncDeps,
} from "./market/sync/sync-wiring";
import { memoryStoreOf } from "./storage/memory-repo";

/** The tail-buy job's Cron Trigger (14:30 Beijing time on weekdays; wrangler.toml). */
const TAIL_BUY_CRON = "30 6 * * 1-5";

export { SessionAgent } from "./session/session-agent";
export { TaskCoordinator } from "./coordinator/task-coordinator";

const app = createApp();

/** The dead-letter queue's name (wrangler.toml). */
const DLQ = "wyckoff-edge-background-dlq";

export default {
  fetch: app.fetch,
  async queue(batch, env, _ctx): Promise<void> {
    const log = createLogger(consoleSink, { queue: batch.queue });
    if (batch.queue === MARKET_SYNC_QUEUE)
      return createQueueConsumer(createSyncHandlers(syncDeps(env, { log })))(batch, env.DEAD_LETTER_QUEUE, log);
    const deps = backgroundDeps(env, { log });
    if (batch.queue === DLQ) {
      const sync = syncDeps(env, { log });
      const rest = [];
      for (const m of batch.messages)
        if (await settleSyncDeadLetter(sync, m.body)) m.ack();
        else rest.push(m);
      return consumeDeadLetters({ queue: batch.queue, messages: rest }, deps);
    }
    await createQueueConsumer(createBackgroundHandlers(deps))(batch, env.DEAD_LETTER_QUEUE, log);
  },
  async scheduled(controller, env, _ctx): Promise<void> {
    const log = createLogger(consoleSink, { cron: controller.cron });
    if (controller.cron === MEMORY_PRUNING_CRON) {
      await pruneMemories({ store: memoryStoreOf(env.DB), now: controller.scheduledTime, log });
      return;
    }
    if (controller.cron === TAIL_BUY_CRON) {
      await env.BACKGROUND_QUEUE.send({ kind: "tailbuy.run" });
      return;
    }
    if (controller.cron === MARKET_SYNC_CRON || controller.cron === US_SYNC_CRON) {
      // The bundled market needs no sync; live deployments sync after every close.
      const market = controller.cron === US_SYNC_CRON ? "US" : "CN";
      if (loadConfig(env).marketData === "live") await env.MARKET_SYNC_QUEUE.send({ kind: "sync.start", market });
      else log.info("market_sync_skipped", { market, reason: "MARKET_DATA is not live" });
      return;
    }
    const deps = backgroundDeps(env, { log });
    await startDailyScreening({
      setting: deps.config.dailyScreening,
      port: createBackgroundPort(deps),
      now: controller.scheduledTime,
      log,
    });
  },
} satisfies ExportedHandler<Env>;
