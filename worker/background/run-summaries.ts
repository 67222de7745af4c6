/**
 * What a finished run says back into the session (the `<task-notification>` text) and what it leaves
 * in the history tables. Notifications are short: counts, the top names and how to read the rest.
 */
import type { BacktestResult } from "../contracts/backtest";
import type { ReportResult, StrategyResult } from "../contracts/report";
import type { ScreeningResult } from "../contracts/screening";
import { TRIGGER_TTL } from "../engine/triggers";
import type { RunHistory } from "./complete-task";

const MORE = "Full result: check_background_tasks with this task_id.";

/** The screening notification. */
export function screeningNotification(taskId: string, r: ScreeningResult): string {
  const s = r.summary;
  const top = r.candidates
    .slice(0, 5)
    .map((c) => `${c.code} ${c.name} (${c.triggers.map((t) => `${t.type}:${t.status}`).join("/")}, ${c.verdict})`)
    .join("; ");
  return [
    `Screening ${taskId} finished (market ${r.market}/${r.universe}, board ${r.board}, as of ${r.asOf ?? "?"}${r.simulated ? ", SIMULATED data" : ""}).`,
    `Funnel: ${s.total_scanned} scanned → L1 ${s.layer1_passed} → L2 ${s.layer2_passed} → L3 ${s.layer3_passed} → L4 ${s.layer4_passed} → L5 ${s.layer5_passed}. Regime ${r.regime.state}.`,
    top ? `Top candidates: ${top}.` : "No candidate reached L4.",
    r.symbols_for_report.length ? `For a report: ${r.symbols_for_report.join(", ")}.` : "",
    MORE,
  ]
    .filter(Boolean)
    .join("\n");
}

/** Signals and recommendations a screening run leaves behind. */
export function screeningHistory(taskId: string, r: ScreeningResult): RunHistory {
  return {
    signals: r.candidates.flatMap((c) =>
      c.triggers.map((t) => ({
        taskId,
        code: c.code,
        name: c.name,
        signal_type: t.type,
        signal_date: t.date,
        status: t.status,
        ttl_days: TRIGGER_TTL[t.type],
        signal_score: t.score,
        snap_close: c.close,
        regime: r.regime.state,
        industry: c.industry,
      })),
    ),
    recommendations: r.candidates
      .filter((c) => r.symbols_for_report.includes(c.code))
      .map((c) => ({
        taskId,
        code: c.code,
        name: c.name,
        recommendDate: r.asOf ?? "",
        recommendPrice: c.close,
        camp: null,
      })),
  };
}

/** The backtest notification. */
export function backtestNotification(taskId: string, r: BacktestResult): string {
  return [
    `Backtest ${taskId} finished: ${r.period}, ${r.universe}, hold ${r.hold_days}d, top ${r.top_n}, ${r.exit_mode} (SL ${r.stop_loss_pct}%, TP ${r.take_profit_pct ?? "none"}%).`,
    `${r.trades} trades, win ${r.win_rate_pct}%, mean ${r.avg_ret_pct}%, median ${r.median_ret_pct}%, Sharpe ${r.sharpe_ratio}, MDD ${r.max_drawdown_pct}%, Calmar ${r.calmar_ratio}, CVaR95 ${r.cvar95_pct}%, total ${r.portfolio_total_ret_pct}%.`,
    `Caveats: ${r.caveats.join(" ")}`,
    MORE,
  ].join("\n");
}

/** The report notification. */
export function reportNotification(taskId: string, r: ReportResult): string {
  const camps = r.camps.map((c) => `${c.code} ${c.camp}`).join("; ");
  return [
    `Report ${taskId} finished for ${r.stock_count} stock(s)${r.rule_based ? " (rule-based: written by the engine's rules, not a language model)" : ` by ${r.model}`}.`,
    camps ? `Camps: ${camps}.` : "",
    r.missing.length ? `No data for: ${r.missing.join(", ")}.` : "",
    MORE,
  ]
    .filter(Boolean)
    .join("\n");
}

/** The strategy-decision notification. */
export function strategyNotification(taskId: string, r: StrategyResult): string {
  const orders = r.decisions
    .slice(0, 8)
    .map((d) => `${d.action} ${d.code} ${d.shares}`)
    .join("; ");
  return [
    `Strategy decision ${taskId} finished (regime ${r.regime}${r.buys_frozen ? ", buys frozen" : ""}${r.rule_based ? ", rule-based" : ""}).`,
    orders ? `Orders: ${orders}.` : "No orders.",
    MORE,
  ].join("\n");
}
