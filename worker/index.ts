/** Worker entry: wiring only. HTTP goes to the Hono app, queue batches to the background consumer. */
import { createApp } from "./app";
import { consoleSink } from "./console-sink";
import { backgroundHandlers } from "./background/handlers";
import { createQueueConsumer } from "./background/queue-consumer";
import { createLogger } from "./lib/log";

export { SessionAgent } from "./session/session-agent";

const app = createApp();
const consume = createQueueConsumer(backgroundHandlers);

export default {
  fetch: app.fetch,
  async queue(batch, env, _ctx): Promise<void> {
    await consume(batch, env.DEAD_LETTER_QUEUE, createLogger(consoleSink, { queue: batch.queue }));
  },
} satisfies ExportedHandler<Env>;
