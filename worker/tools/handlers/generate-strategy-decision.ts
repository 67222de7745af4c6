/** Handler of `generate_strategy_decision`: queues the job and answers its task id at once. */
import type { ToolHandler } from "../bind";
import type { generateStrategyDecisionSpec } from "../specs/generate-strategy-decision";
import { submitBackground } from "./submit-background";

/** Starts a `generate_strategy_decision` task in the calling session. */
export const generateStrategyDecisionHandler: ToolHandler<typeof generateStrategyDecisionSpec> = (input, deps, ctx) =>
  submitBackground("generate_strategy_decision", input, deps, ctx);
