/**
 * Handler of `generate_strategy_decision`: queues the job and answers its task id at once. Without
 * holdings in the call, the decision is about the user's saved portfolio (positions, stops and cash).
 */
import type { Holding, StrategyInput } from "../../contracts/report";
import type { Portfolio } from "../../contracts/portfolio";
import type { ToolHandler } from "../bind";
import type { generateStrategyDecisionSpec } from "../specs/generate-strategy-decision";
import { submitBackground } from "./submit-background";

/** The saved portfolio as OMS holdings (positions with whole shares and a positive cost). */
export function holdingsOf(portfolio: Portfolio): Holding[] {
  return portfolio.positions
    .filter((p) => Number.isInteger(p.shares) && p.shares > 0 && p.cost > 0)
    .slice(0, 50)
    .map((p) => ({
      code: p.code,
      name: p.name,
      shares: p.shares,
      cost_price: p.cost,
      ...(p.stop && p.stop > 0 ? { stop_loss: p.stop } : {}),
    }));
}

/** Starts a `generate_strategy_decision` task in the calling session. */
export const generateStrategyDecisionHandler: ToolHandler<typeof generateStrategyDecisionSpec> = async (
  input,
  deps,
  ctx,
) => {
  let effective: StrategyInput = input;
  if (input.holdings.length === 0 && input.free_cash === 0) {
    const saved = await deps.portfolio.read(ctx.userId);
    effective = { ...input, holdings: holdingsOf(saved), free_cash: Math.max(0, saved.freeCash) };
  }
  return submitBackground("generate_strategy_decision", effective, deps, ctx);
};
