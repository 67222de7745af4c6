/**
 * The tool catalog: every tool's spec, in the order the model sees them. The registry binds each to
 * its handler, MCP lists them by their exposure, the web reads labels, approval forms and badges from
 * here; a tool that is not listed does not exist.
 */
import type { ToolSpec } from "./define";
import { analyzeStockSpec } from "./analyze-stock";
import { checkBackgroundTasksSpec } from "./check-background-tasks";
import { delegateToAnalysisSpec, delegateToResearchSpec, delegateToTradingSpec } from "./delegate";
import { executeSkillSpec } from "./execute-skill";
import { generateAiReportSpec } from "./generate-ai-report";
import { generateStrategyDecisionSpec } from "./generate-strategy-decision";
import { getMarketHistorySpec } from "./get-market-history";
import { getMarketOverviewSpec } from "./get-market-overview";
import { getTimeSpec } from "./get-time";
import { intradayAnalysisSpec } from "./intraday-analysis";
import { listFilesSpec } from "./list-files";
import { marketRegimeSpec } from "./market-regime";
import { portfolioSpec } from "./portfolio";
import { queryHistorySpec } from "./query-history";
import { readFileSpec } from "./read-file";
import { renameSessionSpec } from "./rename-session";
import { runBacktestSpec } from "./run-backtest";
import { screenStocksSpec } from "./screen-stocks";
import { searchStockByNameSpec } from "./search-stock-by-name";
import { updatePortfolioSpec } from "./update-portfolio";
import { webFetchSpec } from "./web-fetch";
import { writeFileSpec } from "./write-file";
import { intradayRescueCheckSpec } from "./intraday-rescue-check";
import { runFunnelSimulationSpec } from "./run-funnel-simulation";
import { wyckoffDiagnoseSpec } from "./wyckoff-diagnose";

/** Every tool's spec, in the order the model sees them. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  executeSkillSpec,
  delegateToResearchSpec,
  delegateToAnalysisSpec,
  delegateToTradingSpec,
  getTimeSpec,
  checkBackgroundTasksSpec,
  renameSessionSpec,
  searchStockByNameSpec,
  analyzeStockSpec,
  getMarketOverviewSpec,
  getMarketHistorySpec,
  marketRegimeSpec,
  intradayAnalysisSpec,
  portfolioSpec,
  updatePortfolioSpec,
  screenStocksSpec,
  runBacktestSpec,
  generateAiReportSpec,
  generateStrategyDecisionSpec,
  queryHistorySpec,
  webFetchSpec,
  listFilesSpec,
  readFileSpec,
  writeFileSpec,
  // MCP only (specs/mcp-exposure.ts `mcpOnly`): WyckoffAgent's diagnostic tools, not in the model's set.
  wyckoffDiagnoseSpec,
  runFunnelSimulationSpec,
  intradayRescueCheckSpec,
];

const BY_NAME = new Map(TOOL_SPECS.map((s) => [s.name, s]));

/** The spec of a tool by name, if it exists. */
export function toolSpecByName(name: string): ToolSpec | undefined {
  return BY_NAME.get(name);
}
