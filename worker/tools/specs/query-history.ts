/** `query_history`: stored screening runs — recommendations, tracked signals, tail-buy records. */
import { HistoryQuery, HistoryResult } from "../../contracts/history";
import { defineToolSpec } from "./define";

/** The `query_history` tool. */
export const queryHistorySpec = defineToolSpec({
  name: "query_history",
  title: { zh: "历史记录", en: "Query history" },
  description:
    "Reads stored screening runs: source=signal (L4 signals with status pending/confirmed/expired and status_counts), source=recommendation (symbols handed to reports, recommend price vs current price and P&L %), source=tail_buy. Filter by status or run_date (YYYY-MM-DD); limit ≤ 200.",
  input: HistoryQuery,
  output: HistoryResult,
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
