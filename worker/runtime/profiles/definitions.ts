/**
 * Profiles: a domain (what is analysed) × a capability (what kind of work) give the
 * visible tools, round budget, timeout and runtime mode. Declarations only; `resolve.ts` merges them.
 */

/** One step of a pipeline: its own instruction, tools and round budget. */
export interface PipelineStep {
  name: string;
  title: { zh: string; en: string };
  instruction: string;
  tools: readonly string[];
  maxRounds: number;
}

/** What kind of work a profile does. */
export interface Capability {
  id: string;
  tools: readonly string[];
  maxRounds: number;
  timeoutMs: number;
  runtime?: "react" | "pipeline";
  steps?: readonly PipelineStep[];
  prompt: string;
}

/** What is analysed. Its runtime mode, when declared, wins over the capability's. */
export interface Domain {
  id: string;
  tools: readonly string[];
  prompt: string;
  runtime?: "react" | "pipeline";
}

/** Sub-agents' tool subsets: a sub-agent sees only its own; any other call is refused and reported. */
export const SUBAGENT_TOOLS = {
  research: [
    "search_stock_by_name",
    "analyze_stock",
    "get_market_overview",
    "get_market_history",
    "query_history",
    "screen_stocks",
    "run_backtest",
    "check_background_tasks",
  ],
  analysis: ["analyze_stock", "portfolio", "get_market_overview", "get_market_history", "generate_ai_report"],
  trading: [
    "portfolio",
    "update_portfolio",
    "generate_strategy_decision",
    "analyze_stock",
    "get_market_overview",
    "get_market_history",
  ],
} as const;

/** A sub-agent's name. */
export type SubagentName = keyof typeof SUBAGENT_TOOLS;

/** Seed 001: an unknown capability keeps the default tools but gets 15 rounds / 600 s. */
export const FALLBACK_BUDGET = { maxRounds: 15, timeoutMs: 600_000 };

const DEEP_DIVE: readonly PipelineStep[] = [
  {
    name: "data",
    title: { zh: "数据检查", en: "Data check" },
    instruction:
      "Step 1 — data check: resolve the symbol and read its recent prices (analyze_stock mode=price). State the source, as-of date, any simulated/stale flag and whether the history is long enough for a Wyckoff reading. No conclusions yet.",
    tools: ["search_stock_by_name", "analyze_stock"],
    maxRounds: 3,
  },
  {
    name: "structure",
    title: { zh: "结构", en: "Structure" },
    instruction:
      "Step 2 — structure: run analyze_stock (mode=diagnose) and describe the trading range (support, resistance, dates, quality) and the phase with its start date.",
    tools: ["analyze_stock"],
    maxRounds: 3,
  },
  {
    name: "events",
    title: { zh: "事件", en: "Events" },
    instruction:
      "Step 3 — events: from the analysis, list the Wyckoff events (type, date, price, volume ratio, confidence) and what each implies; name pending or confirmed triggers.",
    tools: ["analyze_stock"],
    maxRounds: 2,
  },
  {
    name: "risk",
    title: { zh: "风险", en: "Risk" },
    instruction:
      "Step 4 — risk: health score and its reasons, structural and trailing stops, targets, and the market regime (market_regime) as a gate. Say what would invalidate the reading.",
    tools: ["analyze_stock", "market_regime"],
    maxRounds: 3,
  },
  {
    name: "summary",
    title: { zh: "总结", en: "Summary" },
    instruction:
      "Step 5 — summary: in at most 8 lines, the reading, the evidence, the levels to watch and the risks. Use only the earlier steps' outputs; no tools.",
    tools: [],
    maxRounds: 1,
  },
];

/** Capabilities. */
export const CAPABILITIES: readonly Capability[] = [
  {
    id: "research",
    tools: [...SUBAGENT_TOOLS.research, "market_regime", "get_time"],
    maxRounds: 20,
    timeoutMs: 900_000,
    prompt: "Mode: research — gather data broadly, scan, compare, backtest; cite every figure.",
  },
  {
    id: "analysis",
    tools: [...SUBAGENT_TOOLS.analysis, "intraday_analysis", "market_regime", "search_stock_by_name", "get_time"],
    maxRounds: 10,
    timeoutMs: 600_000,
    prompt: "Mode: analysis — one or a few symbols in depth: structure, events, phase, health, stops.",
  },
  {
    id: "trading",
    tools: [...SUBAGENT_TOOLS.trading, "market_regime", "get_time"],
    maxRounds: 10,
    timeoutMs: 600_000,
    prompt: "Mode: trading — decisions about holdings; never change the portfolio without the user's approval.",
  },
  {
    id: "quick",
    tools: ["search_stock_by_name", "analyze_stock", "get_time"],
    maxRounds: 5,
    timeoutMs: 120_000,
    prompt: "Mode: quick — answer briefly with one or two tool calls.",
  },
  {
    id: "deep-dive",
    tools: ["search_stock_by_name", "analyze_stock", "market_regime"],
    maxRounds: 12,
    timeoutMs: 600_000,
    runtime: "pipeline",
    steps: DEEP_DIVE,
    prompt: "Mode: deep dive — a fixed five-step study of one symbol.",
  },
];

/** Domains. */
export const DOMAINS: readonly Domain[] = [
  {
    id: "cn-equity",
    tools: ["intraday_analysis", "market_regime"],
    prompt: "Domain: China A-shares (T+1, price limits by board, lots of 100 shares, CNY).",
  },
  { id: "us-equity", tools: ["market_regime"], prompt: "Domain: US equities (USD, no daily price limits)." },
  {
    id: "index",
    tools: ["get_market_history", "market_regime", "get_market_overview"],
    prompt: "Domain: indices — breadth, regime and the index's own structure.",
  },
];

/** The domain used when a profile names none or an unknown one. */
export const DEFAULT_DOMAIN = "cn-equity";
