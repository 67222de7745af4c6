/**
 * The offline model's background-task answers: a task list with statuses, each finished task's result
 * (a screening's funnel, top sectors and candidates; a backtest's metrics and caveats; report camps;
 * strategy orders) and the receipt of a task just queued.
 */
import { caveatText, taskFailureText } from "../../contracts/server-text";
import { REGIME_WORDS, VERDICT_WORDS, wordOf } from "../../contracts/wyckoff-words";
import type { Lang } from "../errors";
import { fixed, isRecord, kindTitle, md, num, pct, records, T, type Rec } from "./answer-format";
import { triggerText } from "./describe-analysis";

/** A backtest's exit mode (`contracts/backtest.ts` ExitMode) in words. */
const EXIT_MODE: Record<string, { zh: string; en: string }> = {
  sltp: { zh: "止损止盈", en: "stop-loss/take-profit" },
  close_only: { zh: "仅按收盘退出", en: "close only" },
  atr: { zh: "ATR 止损", en: "ATR stops" },
};
function describeScreening(r: Rec, lang: Lang): string[] {
  // A screening that did not run (nothing cached, the universe refused) has no funnel or date: its notes say why.
  if (r.ok === false) {
    const why = (Array.isArray(r.notes) ? r.notes : []).map((n: unknown) => md(taskFailureText(String(n), lang)));
    return [
      T(lang, `选股未运行（${md(r.universe)}）：`, `The screening did not run (${md(r.universe)}): `) +
        (why.join(T(lang, "；", "; ")) || T(lang, "没有可扫描的股票。", "nothing to scan.")),
    ];
  }
  const s = isRecord(r.summary) ? r.summary : {};
  const regime = isRecord(r.regime) ? r.regime : {};
  const lines = [
    T(
      lang,
      `选股漏斗（${md(r.universe)}，截至 ${md(r.asOf)}${r.simulated ? "，⚠️ 模拟市场" : ""}）：扫描 ${num(s.total_scanned, 0)} → L1 流动性 ${num(s.layer1_passed, 0)} → L2 通道 ${num(s.layer2_passed, 0)} → L3 板块 ${num(s.layer3_passed, 0)} → L4 触发 ${num(s.layer4_passed, 0)} → L5 确认 ${num(s.layer5_passed, 0)}；市场状态：${md(wordOf(REGIME_WORDS, regime.state, lang))}。`,
      `Screening funnel (${md(r.universe)}, as of ${md(r.asOf)}${r.simulated ? ", ⚠️ simulated market" : ""}): ${num(s.total_scanned, 0)} scanned → L1 liquidity ${num(s.layer1_passed, 0)} → L2 channels ${num(s.layer2_passed, 0)} → L3 sectors ${num(s.layer3_passed, 0)} → L4 triggers ${num(s.layer4_passed, 0)} → L5 confirmed ${num(s.layer5_passed, 0)}; regime ${md(wordOf(REGIME_WORDS, regime.state, lang))}.`,
    ),
  ];
  const sectors = records(r.top_sectors).slice(0, 3);
  if (sectors.length > 0)
    lines.push(
      T(lang, "强势板块（按强度排序）：", "Top sectors (by strength): ") +
        sectors
          .map((x) =>
            T(
              lang,
              `${md(x.sector)}（${num(x.count, 0)} 只，强度 ${fixed(x.strength, 2)}）`,
              `${md(x.sector)} (${num(x.count, 0)} stocks, strength ${fixed(x.strength, 2)})`,
            ),
          )
          .join(T(lang, "，", ", ")),
    );
  const candidates = records(r.candidates).slice(0, 5);
  if (candidates.length === 0) lines.push(T(lang, "没有股票进入 L4。", "No candidate reached L4."));
  else {
    lines.push(T(lang, "前几名候选：", "Top candidates:"));
    for (const c of candidates)
      lines.push(
        `- **${md(c.code)} ${md(c.name)}** ${num(c.close)} — ${records(c.triggers)
          .map((t) => triggerText(t, lang))
          .join(
            T(lang, "，", ", "),
          )}${T(lang, "；结论：", "; verdict ")}${md(wordOf(VERDICT_WORDS, c.verdict, lang))}${c.stop !== null && c.stop !== undefined ? T(lang, `，止损 ${num(c.stop)}`, `, stop ${num(c.stop)}`) : ""}`,
      );
  }
  return lines;
}

function describeBacktest(r: Rec, lang: Lang): string[] {
  const lines = [
    T(
      lang,
      `回测 ${md(r.period)}（${md(r.universe)}，持有 ${num(r.hold_days, 0)} 天，每日前 ${num(r.top_n, 0)} 名，${EXIT_MODE[String(r.exit_mode)]?.zh ?? md(r.exit_mode)}）：${num(r.trades, 0)} 笔交易，胜率 ${num(r.win_rate_pct)}%，平均 ${pct(r.avg_ret_pct)}，中位数 ${pct(r.median_ret_pct)}，夏普 ${num(r.sharpe_ratio)}，最大回撤 ${num(r.max_drawdown_pct)}%，Calmar ${num(r.calmar_ratio)}，CVaR95 ${num(r.cvar95_pct)}%，组合总收益 ${pct(r.portfolio_total_ret_pct)}。`,
      `Backtest ${md(r.period)} (${md(r.universe)}, hold ${num(r.hold_days, 0)} days, top ${num(r.top_n, 0)} per day, ${EXIT_MODE[String(r.exit_mode)]?.en ?? md(r.exit_mode)}): ${num(r.trades, 0)} trades, win rate ${num(r.win_rate_pct)}%, mean ${pct(r.avg_ret_pct)}, median ${pct(r.median_ret_pct)}, Sharpe ${num(r.sharpe_ratio)}, max drawdown ${num(r.max_drawdown_pct)}%, Calmar ${num(r.calmar_ratio)}, CVaR95 ${num(r.cvar95_pct)}%, portfolio total ${pct(r.portfolio_total_ret_pct)}.`,
    ),
  ];
  const caveats = Array.isArray(r.caveats) ? r.caveats.map((c: unknown) => md(caveatText(String(c), lang))) : [];
  if (caveats.length > 0) lines.push(T(lang, `注意事项：${caveats.join("")}`, `Caveats: ${caveats.join(" ")}`));
  return lines;
}

function describeTaskResult(kind: unknown, result: unknown, lang: Lang): string[] {
  if (!isRecord(result)) return [];
  if (isRecord(result.summary) && Array.isArray(result.candidates)) return describeScreening(result, lang);
  if (typeof result.win_rate_pct === "number") return describeBacktest(result, lang);
  if (Array.isArray(result.camps))
    return [
      T(lang, "研报分组：", "Report camps: ") +
        records(result.camps)
          .map((c) => `${md(c.code)} ${md(c.name)} → ${md(c.camp)}`)
          .join("; "),
    ];
  if (Array.isArray(result.decisions))
    return [
      T(
        lang,
        `攻防决策（市场状态：${md(wordOf(REGIME_WORDS, result.regime, lang))}）：`,
        `Strategy decision (regime ${md(wordOf(REGIME_WORDS, result.regime, lang))}): `,
      ) +
        (records(result.decisions)
          .slice(0, 8)
          .map((d) => `${md(d.action)} ${md(d.code)} ${num(d.shares, 0)}`)
          .join("; ") || T(lang, "无订单", "no orders")),
    ];
  return [T(lang, `任务 ${kindTitle(kind, "zh")} 已有结果。`, `The ${kindTitle(kind, "en")} task has a result.`)];
}

const STATUS: Record<string, { zh: string; en: string }> = {
  queued: { zh: "排队中", en: "queued" },
  running: { zh: "运行中", en: "running" },
  succeeded: { zh: "已完成", en: "succeeded" },
  failed: { zh: "失败", en: "failed" },
  cancelled: { zh: "已取消", en: "cancelled" },
};

export function describeTasks(o: Rec, lang: Lang): string[] {
  const tasks = records(o.tasks);
  if (tasks.length === 0) return [T(lang, "没有后台任务。", "No background tasks.")];
  const lines: string[] = [];
  for (const t of tasks.slice(0, 8)) {
    const status = STATUS[String(t.status)]?.[lang] ?? md(t.status);
    lines.push(
      `- ${kindTitle(t.kind, lang)} \`${String(t.id).replace(/`/g, "")}\`${T(lang, "：", ": ")}${status}${t.error ? ` — ${md(taskFailureText(String(t.error), lang))}` : ""}`,
    );
    if (tasks.length === 1 || t.result !== undefined) lines.push(...describeTaskResult(t.kind, t.result, lang));
  }
  return lines;
}

export function describeAccepted(o: Rec, lang: Lang): string[] {
  return [
    T(
      lang,
      `后台任务 \`${String(o.task_id).replace(/`/g, "")}\`（${kindTitle(o.kind, "zh")}）已提交，完成后结果会作为通知出现在这个对话里；也可以问“查看后台任务”。`,
      `Background task \`${String(o.task_id).replace(/`/g, "")}\` (${kindTitle(o.kind, "en")}) is queued; its result will arrive in this chat as a notification, or ask "check background tasks".`,
    ),
  ];
}
