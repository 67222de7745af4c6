/**
 * The tool registry: each spec of the catalog (`specs/catalog.ts`) bound to its handler. The model's
 * schemas (`MODEL_TOOLS`: all but the MCP-only tools) and MCP's tool list come from here, in the
 * catalog's order; the web reads the catalog itself.
 */
import { bindTool, type BoundTool } from "./bind";
import { TOOL_SPECS } from "./specs/catalog";
import { delegateToAnalysisHandler, delegateToResearchHandler, delegateToTradingHandler } from "./handlers/delegate";
import { executeSkillHandler } from "./handlers/execute-skill";
import { delegateToAnalysisSpec, delegateToResearchSpec, delegateToTradingSpec } from "./specs/delegate";
import { executeSkillSpec } from "./specs/execute-skill";
import { checkBackgroundTasksHandler } from "./handlers/check-background-tasks";
import { getTimeHandler } from "./handlers/get-time";
import { renameSessionHandler } from "./handlers/rename-session";
import { checkBackgroundTasksSpec } from "./specs/check-background-tasks";
import { getTimeSpec } from "./specs/get-time";
import { renameSessionSpec } from "./specs/rename-session";
import { analyzeStockHandler } from "./handlers/analyze-stock";
import { getMarketHistoryHandler } from "./handlers/get-market-history";
import { getMarketOverviewHandler } from "./handlers/get-market-overview";
import { intradayAnalysisHandler } from "./handlers/intraday-analysis";
import { marketRegimeHandler } from "./handlers/market-regime";
import { searchStockByNameHandler } from "./handlers/search-stock-by-name";
import { analyzeStockSpec } from "./specs/analyze-stock";
import { getMarketHistorySpec } from "./specs/get-market-history";
import { getMarketOverviewSpec } from "./specs/get-market-overview";
import { intradayAnalysisSpec } from "./specs/intraday-analysis";
import { marketRegimeSpec } from "./specs/market-regime";
import { searchStockByNameSpec } from "./specs/search-stock-by-name";
import { portfolioHandler } from "./handlers/portfolio";
import { updatePortfolioHandler } from "./handlers/update-portfolio";
import { portfolioSpec } from "./specs/portfolio";
import { updatePortfolioSpec } from "./specs/update-portfolio";

import { generateAiReportHandler } from "./handlers/generate-ai-report";
import { generateStrategyDecisionHandler } from "./handlers/generate-strategy-decision";
import { queryHistoryHandler } from "./handlers/query-history";
import { runBacktestHandler } from "./handlers/run-backtest";
import { screenStocksHandler } from "./handlers/screen-stocks";
import { generateAiReportSpec } from "./specs/generate-ai-report";
import { generateStrategyDecisionSpec } from "./specs/generate-strategy-decision";
import { queryHistorySpec } from "./specs/query-history";
import { runBacktestSpec } from "./specs/run-backtest";
import { screenStocksSpec } from "./specs/screen-stocks";
import { listFilesHandler } from "./handlers/list-files";
import { readFileHandler } from "./handlers/read-file";
import { webFetchHandler } from "./handlers/web-fetch";
import { writeFileHandler } from "./handlers/write-file";
import { listFilesSpec } from "./specs/list-files";
import { readFileSpec } from "./specs/read-file";
import { webFetchSpec } from "./specs/web-fetch";
import { writeFileSpec } from "./specs/write-file";
import { intradayRescueCheckHandler } from "./handlers/intraday-rescue-check";
import { runFunnelSimulationHandler } from "./handlers/run-funnel-simulation";
import { wyckoffDiagnoseHandler } from "./handlers/wyckoff-diagnose";
import { intradayRescueCheckSpec } from "./specs/intraday-rescue-check";
import { runFunnelSimulationSpec } from "./specs/run-funnel-simulation";
import { wyckoffDiagnoseSpec } from "./specs/wyckoff-diagnose";
import { mcpOnly } from "./specs/mcp-exposure";

/** Each catalog spec with its handler. */
const BOUND: readonly BoundTool[] = [
  bindTool(executeSkillSpec, executeSkillHandler),
  bindTool(delegateToResearchSpec, delegateToResearchHandler),
  bindTool(delegateToAnalysisSpec, delegateToAnalysisHandler),
  bindTool(delegateToTradingSpec, delegateToTradingHandler),
  bindTool(getTimeSpec, getTimeHandler),
  bindTool(checkBackgroundTasksSpec, checkBackgroundTasksHandler),
  bindTool(renameSessionSpec, renameSessionHandler),
  bindTool(searchStockByNameSpec, searchStockByNameHandler),
  bindTool(analyzeStockSpec, analyzeStockHandler),
  bindTool(getMarketOverviewSpec, getMarketOverviewHandler),
  bindTool(getMarketHistorySpec, getMarketHistoryHandler),
  bindTool(marketRegimeSpec, marketRegimeHandler),
  bindTool(intradayAnalysisSpec, intradayAnalysisHandler),
  bindTool(portfolioSpec, portfolioHandler),
  bindTool(updatePortfolioSpec, updatePortfolioHandler),
  bindTool(screenStocksSpec, screenStocksHandler),
  bindTool(runBacktestSpec, runBacktestHandler),
  bindTool(generateAiReportSpec, generateAiReportHandler),
  bindTool(generateStrategyDecisionSpec, generateStrategyDecisionHandler),
  bindTool(queryHistorySpec, queryHistoryHandler),
  bindTool(webFetchSpec, webFetchHandler),
  bindTool(listFilesSpec, listFilesHandler),
  bindTool(readFileSpec, readFileHandler),
  bindTool(writeFileSpec, writeFileHandler),
  bindTool(wyckoffDiagnoseSpec, wyckoffDiagnoseHandler),
  bindTool(runFunnelSimulationSpec, runFunnelSimulationHandler),
  bindTool(intradayRescueCheckSpec, intradayRescueCheckHandler),
];

/** The bound tools in the catalog's order; a catalog spec without a handler (or the reverse) is a bug. */
function inCatalogOrder(bound: readonly BoundTool[]): readonly BoundTool[] {
  const tools = TOOL_SPECS.map((spec) => {
    const b = bound.find((t) => t.spec === spec);
    if (!b) throw new Error(`tool ${spec.name} is in the catalog but has no handler`);
    return b;
  });
  const extra = bound.find((b) => !TOOL_SPECS.includes(b.spec));
  if (extra) throw new Error(`tool ${extra.spec.name} has a handler but is not in the catalog`);
  return tools;
}

/** Every tool, in the catalog's order (MCP lists these by their exposure). */
export const TOOLS: readonly BoundTool[] = inCatalogOrder(BOUND);

/** The tools a chat turn's model gets by default: every tool except the MCP-only ones. */
export const MODEL_TOOLS: readonly BoundTool[] = TOOLS.filter((t) => !mcpOnly(t.spec.name));

/** Looks a tool up by name. */
export function findTool(name: string): BoundTool | undefined {
  return TOOLS.find((t) => t.spec.name === name);
}
