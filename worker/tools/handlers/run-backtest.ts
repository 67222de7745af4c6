/** Handler of `run_backtest`: queues the job and answers its task id at once. */
import type { ToolHandler } from "../bind";
import type { runBacktestSpec } from "../specs/run-backtest";
import { submitBackground } from "./submit-background";

/** Starts a `run_backtest` task in the calling session. */
export const runBacktestHandler: ToolHandler<typeof runBacktestSpec> = (input, deps, ctx) =>
  submitBackground("run_backtest", input, deps, ctx);
