/**
 * Worker entry: wiring only. HTTP goes to the Hono app; queue batches to the background consumer
 * (or, for the dead-letter queue, to the dead-letter consumer); the Cron Triggers start the daily
 * screening and the daily memory pruning.
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
import { createLogger } from "./lib/log";
import { memoryStoreOf } from "./storage/memory-repo";

export { SessionAgent } from "./session/session-agent";
export { TaskCoordinator } from "./coordinator/task-coordinator";

const app = createApp();

/** The dead-letter queue's name (wrangler.toml). */
const DLQ = "wyckoff-edge-background-dlq";

export default {
  fetch: app.fetch,
  async queue(batch, env, _ctx): Promise<void> {
    const log = createLogger(consoleSink, { queue: batch.queue });
    const deps = backgroundDeps(env, { log });
    if (batch.queue === DLQ) return consumeDeadLetters(batch, deps);
    await createQueueConsumer(createBackgroundHandlers(deps))(batch, env.DEAD_LETTER_QUEUE, log);
  },
  async scheduled(controller, env, _ctx): Promise<void> {
    const log = createLogger(consoleSink, { cron: controller.cron });
    if (controller.cron === MEMORY_PRUNING_CRON) {
      await pruneMemories({ store: memoryStoreOf(env.DB), now: controller.scheduledTime, log });
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
