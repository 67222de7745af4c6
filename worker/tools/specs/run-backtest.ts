/** `run_backtest`: a day-by-day replay of the funnel with trade rules, run in the background. */
import { BacktestInput } from "../../contracts/backtest";
import { BackgroundAccepted } from "../../contracts/task";
import { defineToolSpec } from "./define";

/** The `run_backtest` tool. */
export const runBacktestSpec = defineToolSpec({
  name: "run_backtest",
  title: { zh: "策略回测", en: "Backtest the strategy" },
  description:
    "Backtests the screening funnel in the background: next-open entries, T+1, unfillable one-price limit days, 0.5% friction per side, regime sizing. Exit modes close_only / sltp / atr. Percent inputs (stop_loss_pct −8 = −8%). Give `symbol` to backtest one named stock under the same rules. Returns a task_id at once; metrics (win rate, Sharpe, max drawdown, Calmar, CVaR95, NAV) arrive as a [SYSTEM NOTIFICATION].",
  input: BacktestInput,
  output: BackgroundAccepted,
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: true },
});
