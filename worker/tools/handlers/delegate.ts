/** Handlers of the delegate tools: through the SubagentRunner the runtime provides for this turn. */
import { err, ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { delegateToAnalysisSpec } from "../specs/delegate";

type DelegateHandler = ToolHandler<typeof delegateToAnalysisSpec>;

function delegateTo(agent: "research" | "analysis" | "trading"): DelegateHandler {
  return async (input, deps, ctx) => {
    if (!deps.subagents)
      return err("invalid_input", "delegation is not available here (a sub-agent cannot delegate further)");
    return ok(
      await deps.subagents.run({
        agent,
        task: input.task,
        context: input.context,
        toolCallId: ctx.toolCallId,
      }),
    );
  };
}

/** `delegate_to_research`. */
export const delegateToResearchHandler = delegateTo("research");
/** `delegate_to_analysis`. */
export const delegateToAnalysisHandler = delegateTo("analysis");
/** `delegate_to_trading`. */
export const delegateToTradingHandler = delegateTo("trading");
