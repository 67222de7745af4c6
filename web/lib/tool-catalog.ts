/**
 * The tools the reading room knows by name: display names (zh/en), whether a call asks first, and
 * the input schema (for validating an edited approval). Read from the same specs the model gets.
 */
import type { ToolSpec } from "@tool-specs/define";
import { analyzeStockSpec } from "@tool-specs/analyze-stock";
import { checkBackgroundTasksSpec } from "@tool-specs/check-background-tasks";
import { delegateToAnalysisSpec, delegateToResearchSpec, delegateToTradingSpec } from "@tool-specs/delegate";
import { executeSkillSpec } from "@tool-specs/execute-skill";
import { generateAiReportSpec } from "@tool-specs/generate-ai-report";
import { generateStrategyDecisionSpec } from "@tool-specs/generate-strategy-decision";
import { getMarketHistorySpec } from "@tool-specs/get-market-history";
import { getMarketOverviewSpec } from "@tool-specs/get-market-overview";
import { getTimeSpec } from "@tool-specs/get-time";
import { intradayAnalysisSpec } from "@tool-specs/intraday-analysis";
import { marketRegimeSpec } from "@tool-specs/market-regime";
import { portfolioSpec } from "@tool-specs/portfolio";
import { queryHistorySpec } from "@tool-specs/query-history";
import { renameSessionSpec } from "@tool-specs/rename-session";
import { runBacktestSpec } from "@tool-specs/run-backtest";
import { screenStocksSpec } from "@tool-specs/screen-stocks";
import { searchStockByNameSpec } from "@tool-specs/search-stock-by-name";
import { updatePortfolioSpec } from "@tool-specs/update-portfolio";
import type { Lang } from "./strings";

const SPECS: readonly ToolSpec[] = [
  analyzeStockSpec,
  checkBackgroundTasksSpec,
  getMarketHistorySpec,
  getMarketOverviewSpec,
  getTimeSpec,
  intradayAnalysisSpec,
  marketRegimeSpec,
  renameSessionSpec,
  searchStockByNameSpec,
  portfolioSpec,
  updatePortfolioSpec,
  screenStocksSpec,
  runBacktestSpec,
  generateAiReportSpec,
  generateStrategyDecisionSpec,
  queryHistorySpec,
  delegateToResearchSpec,
  delegateToAnalysisSpec,
  delegateToTradingSpec,
  executeSkillSpec,
];

const BY_NAME = new Map(SPECS.map((s) => [s.name, s]));

/** The spec of a tool, if the reading room knows it. */
export function toolSpec(name: string): ToolSpec | undefined {
  return BY_NAME.get(name);
}

/** A tool's display name in a language (its snake_case name when unknown). */
export function toolTitle(name: string, lang: Lang): string {
  return BY_NAME.get(name)?.title[lang] ?? name;
}
