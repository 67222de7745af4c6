/** Handler of `query_history`: the caller's stored runs through the BackgroundTasks port. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { queryHistorySpec } from "../specs/query-history";

/** Reads the caller's signals, recommendations or tail-buy records. */
export const queryHistoryHandler: ToolHandler<typeof queryHistorySpec> = async (input, deps, ctx) =>
  ok(await deps.background.history(ctx.userId, input));
