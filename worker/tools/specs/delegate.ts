/**
 * `delegate_to_research` / `delegate_to_analysis` / `delegate_to_trading`: hand a focused task to a
 * sub-agent with its own prompt and a narrowed tool set; its answer comes back as the
 * result.
 */
import { z } from "zod";
import { defineToolSpec } from "./define";

const input = z.object({
  task: z.string().trim().min(1).max(2_000).describe("what the sub-agent must find out or do"),
  context: z.string().max(4_000).default("").describe("facts it needs from the conversation"),
});
const output = z.object({
  agent: z.string(),
  answer: z.string(),
  rounds: z.number().int(),
  toolsUsed: z.array(z.string()),
  refused: z.array(z.string()),
  status: z.enum(["done", "rounds_exceeded", "error"]),
});
const annotations = { readOnly: false, concurrencySafe: false, requiresApproval: false, background: false };

/** Research sub-agent: data gathering, scans, signals, backtests. */
export const delegateToResearchSpec = defineToolSpec({
  name: "delegate_to_research",
  title: { zh: "委派研究子智能体", en: "Delegate to research" },
  description:
    "A research sub-agent gathers data: symbol search, analyses, market overview/history, screening, backtests, history of signals. Give it a self-contained task and the context it needs; it returns its findings.",
  input,
  output,
  annotations,
});

/** Analysis sub-agent: single names, holdings check-ups, reports. */
export const delegateToAnalysisSpec = defineToolSpec({
  name: "delegate_to_analysis",
  title: { zh: "委派分析子智能体", en: "Delegate to analysis" },
  description:
    "An analysis sub-agent studies one or a few symbols or the holdings in depth (analyze_stock, portfolio, market overview/history, AI report) and returns its reading.",
  input,
  output,
  annotations,
});

/** Trading sub-agent: hold/exit decisions and portfolio changes (with approval). */
export const delegateToTradingSpec = defineToolSpec({
  name: "delegate_to_trading",
  title: { zh: "委派交易子智能体", en: "Delegate to trading" },
  description:
    "A trading sub-agent decides what to do with holdings (strategy decision, portfolio, analyses) and can propose portfolio changes, which the user must approve. Returns its decision and reasons.",
  input,
  output,
  annotations,
});
