/**
 * The registry of background message kinds and their handlers: `task.run` starts any task,
 * `screen.batch` / `backtest.batch` are fan-out batches of a screening / backtest, `tailbuy.run` the
 * 14:30 tail-buy job. Anything else goes to the dead-letter queue.
 */
import type { BackgroundDeps } from "./background-deps";
import { createBacktestBatchHandler } from "./backtest-job";
import type { QueueHandler } from "./queue-consumer";
import { createRunTaskHandler } from "./run-task";
import { createScreenBatchHandler } from "./screen-jobs";
import { runTailBuy } from "./tail-buy";

/** Handlers by message kind, over the given deps. */
export function createBackgroundHandlers(d: BackgroundDeps): Readonly<Record<string, QueueHandler>> {
  return {
    "task.run": createRunTaskHandler(d),
    "screen.batch": createScreenBatchHandler(d),
    "backtest.batch": createBacktestBatchHandler(d),
    "tailbuy.run": async (_body, ctx) =>
      void (await runTailBuy({ history: d.history, market: d.market, now: d.now, log: ctx.log })),
  };
}
