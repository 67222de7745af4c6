/** Handler of `screen_stocks`: queues the job and answers its task id at once. */
import type { ToolHandler } from "../bind";
import type { screenStocksSpec } from "../specs/screen-stocks";
import { submitBackground } from "./submit-background";

/** Starts a `screen_stocks` task in the calling session. */
export const screenStocksHandler: ToolHandler<typeof screenStocksSpec> = (input, deps, ctx) =>
  submitBackground("screen_stocks", input, deps, ctx);
