/** Handler of `update_portfolio`: the shared change path, scoped to the calling user (runs only after approval). */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { updatePortfolioSpec } from "../specs/update-portfolio";
import { applyPortfolioChange } from "./portfolio-changes";

/** Applies one approved change to the caller's portfolio. */
export const updatePortfolioHandler: ToolHandler<typeof updatePortfolioSpec> = async (input, deps, ctx) => {
  const r = await applyPortfolioChange(ctx.userId, input, deps);
  if (!r.ok) return r;
  const { after, summary, changed, deletedTrades, cashMove } = r.value;
  return ok({
    success: true,
    message: summary,
    freeCash: after.freeCash,
    positionCount: after.positionCount,
    positionsSummary: after.positions.map((p) => `${p.code} ${p.name} ${p.shares} @ ${p.cost}`),
    changed,
    deletedRecords: deletedTrades,
    ...(cashMove ? { cashMove } : {}),
  });
};
