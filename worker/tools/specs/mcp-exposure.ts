/**
 * Which registry tools the MCP server offers, and at which tier. Every registry tool
 * has an entry — a tier or the reason it stays off MCP — so a new tool is a decision, never a silent
 * omission (the registry coherence test fails until it is listed here).
 *
 * Tier 1: the user's stored history. Tier 2: market data and the engine. Tier 3: the user's own data
 * and model-backed work. Tools that write (`readOnly: false`) are listed but refused unless
 * `MCP_ALLOW_WRITES=true`.
 */

/**
 * What a tool reaches beyond this deployment's own storage (MCP `openWorldHint`): `market` — the
 * market-data providers when `MARKET_DATA=live` (the bundled offline data is a closed world);
 * `model` — the configured language model (and the market data it is given).
 */
export type McpWorld = "market" | "model";

/**
 * How a tool appears over MCP. `destructive`: a write that may overwrite or remove what is there
 * (MCP `destructiveHint`; writes that only add are not destructive).
 */
export type McpExposure = McpOffer | { excluded: string };

/**
 * An offered tool. `mcpOnly`: why the chat model does not get it (MCP clients orchestrate
 * themselves; the chat model has the tool it wraps).
 */
export interface McpOffer {
  tier: 1 | 2 | 3;
  world?: McpWorld;
  destructive?: boolean;
  mcpOnly?: string;
}

const SESSION_ONLY =
  "works on the chat session's own loop (model, prompt, sub-agents); MCP clients orchestrate themselves";

/** Every registry tool by name. */
export const MCP_EXPOSURE: Readonly<Record<string, McpExposure>> = {
  query_history: { tier: 1 },
  check_background_tasks: { tier: 1 },
  get_time: { tier: 2 },
  search_stock_by_name: { tier: 2, world: "market" },
  analyze_stock: { tier: 2, world: "market" },
  get_market_overview: { tier: 2, world: "market" },
  get_market_history: { tier: 2, world: "market" },
  market_regime: { tier: 2, world: "market" },
  intraday_analysis: { tier: 2, world: "market" },
  screen_stocks: { tier: 2, world: "market" },
  run_backtest: { tier: 2, world: "market" },
  portfolio: { tier: 3, world: "market" },
  update_portfolio: { tier: 3, destructive: true },
  generate_ai_report: { tier: 3, world: "model" },
  generate_strategy_decision: { tier: 3, world: "model" },
  list_files: { tier: 3 },
  read_file: { tier: 3 },
  write_file: { tier: 3, destructive: true },
  wyckoff_diagnose: {
    tier: 2,
    world: "market",
    mcpOnly: "WyckoffAgent's diagnose shape of analyze_stock mode=diagnose, which the model has",
  },
  run_funnel_simulation: {
    tier: 2,
    world: "market",
    mcpOnly: "the funnel run inside the call; chat turns run it as screen_stocks in the background",
  },
  intraday_rescue_check: {
    tier: 2,
    world: "market",
    mcpOnly: "a classification over intraday_analysis and the daily range, both of which the model has",
  },
  execute_skill: { excluded: SESSION_ONLY },
  delegate_to_research: { excluded: SESSION_ONLY },
  delegate_to_analysis: { excluded: SESSION_ONLY },
  delegate_to_trading: { excluded: SESSION_ONLY },
  rename_session: { excluded: "renames the chat session it runs in; an MCP call has no session" },
  web_fetch: {
    excluded: "MCP clients have their own web access; the edge does not act as an open fetch proxy for them",
  },
};

/** The tier of a tool over MCP, or undefined when it is not offered there. */
export function mcpTier(name: string): 1 | 2 | 3 | undefined {
  const e = MCP_EXPOSURE[name];
  return e && "tier" in e ? e.tier : undefined;
}

/** The exposure entry of an offered tool (undefined when it stays off MCP). */
export function mcpEntry(name: string): McpOffer | undefined {
  const e = MCP_EXPOSURE[name];
  return e && "tier" in e ? e : undefined;
}

/** True for a tool only MCP offers (the chat model never gets it). */
export function mcpOnly(name: string): boolean {
  return mcpEntry(name)?.mcpOnly !== undefined;
}
