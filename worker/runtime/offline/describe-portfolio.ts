/**
 * The offline model's portfolio answers: each holding's P&L, stop, health and position grade, and the
 * holdings list with cash.
 */
import type { Lang } from "../errors";
import { grade, md, num, pct, records, STOP_STATUS, T, type Rec } from "./answer-format";

function describeHolding(d: Rec, lang: Lang): string {
  const head = `**${md(d.code)} ${md(d.name)}** ${T(lang, `${num(d.shares, 0)} 股，成本 ${num(d.cost)}`, `${num(d.shares, 0)} shares at ${num(d.cost)}`)}`;
  if (d.ok === false)
    return `- ${head}${T(lang, `：无法诊断 — ${md(d.error)}`, `: could not be diagnosed — ${md(d.error)}`)}`;
  const parts = [
    T(lang, `现价 ${num(d.latestClose)}（${md(d.latestDate)}）`, `last ${num(d.latestClose)} (${md(d.latestDate)})`),
    T(lang, `市值 ${num(d.marketValue)}`, `value ${num(d.marketValue)}`),
    T(lang, `盈亏 ${pct(d.pnlPct)}`, `P&L ${pct(d.pnlPct)}`),
    T(
      lang,
      `止损 ${num(d.stop)}（${STOP_STATUS[String(d.stopStatus)]?.zh ?? "?"}）`,
      `stop ${num(d.stop)} (${STOP_STATUS[String(d.stopStatus)]?.en ?? "?"})`,
    ),
    T(lang, `阶段 ${md(d.phase)}`, `phase ${md(d.phase)}`),
    T(
      lang,
      `健康度 ${num(d.healthScore, 0)}/100（${grade(d.healthGrade, lang)}）`,
      `health ${num(d.healthScore, 0)}/100 (${grade(d.healthGrade, lang)})`,
    ),
    T(lang, `持仓评级 ${grade(d.grade, lang)}`, `position grade ${grade(d.grade, lang)}`),
  ];
  const signs = [...(Array.isArray(d.danger) ? d.danger : []), ...(Array.isArray(d.warnings) ? d.warnings : [])];
  const flags = [
    d.simulated === true ? T(lang, "模拟数据", "simulated data") : "",
    d.stale === true ? T(lang, "离线历史数据", "bundled history") : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `- ${head}${T(lang, "：", ": ")}${parts.join(T(lang, "，", ", "))}${signs.length ? T(lang, `；注意：${signs.map(md).join("；")}`, `; watch: ${signs.map(md).join("; ")}`) : ""}${flags ? ` (${flags})` : ""}`;
}

export function describePortfolio(o: Rec, lang: Lang): string[] {
  const positions = records(o.positions);
  const lines = [
    T(
      lang,
      `可用资金 ${num(o.freeCash)}，持仓 ${positions.length} 只。`,
      `Free cash ${num(o.freeCash)}, ${positions.length} position(s).`,
    ),
  ];
  if (positions.length === 0) {
    lines.push(
      T(
        lang,
        "还没有持仓；可以用 update_portfolio 添加（需要你确认）。",
        "No holdings yet; add them with update_portfolio (asks for your approval).",
      ),
    );
    return lines;
  }
  const diagnostics = records(o.diagnostics);
  if (diagnostics.length > 0) {
    const order = (d: Rec) => (d.grade === "danger" ? 0 : d.grade === "warning" ? 1 : 2);
    for (const d of [...diagnostics].sort((a, b) => order(a) - order(b))) lines.push(describeHolding(d, lang));
    const value = diagnostics.reduce((s, d) => s + (typeof d.marketValue === "number" ? d.marketValue : 0), 0);
    lines.push(T(lang, `持仓市值合计 ${num(value)}。`, `Holdings value ${num(value)} in total.`));
  } else
    for (const p of positions)
      lines.push(
        `- **${md(p.code)} ${md(p.name)}** ${T(lang, `${num(p.shares, 0)} 股，成本 ${num(p.cost)}，止损 ${p.stop === null ? "未设" : num(p.stop)}`, `${num(p.shares, 0)} shares at ${num(p.cost)}, stop ${p.stop === null ? "not set" : num(p.stop)}`)}`,
      );
  return lines;
}
