/**
 * Templated answers of the offline model: what each tool's result means, said plainly in the user's
 * language (holdings with P&L and stops, a screening's layers and top candidates, a backtest's metrics
 * and caveats, a Wyckoff reading, the regime…), always labelled as the offline rule model (no
 * invented facts, no model judgement). Everything quoted from data is escaped for markdown, so a
 * name or message with `<code>` or `*` cannot change how the rest of the answer renders.
 */
import { reasonText } from "../../contracts/reason-text";
import { asClockReading, caveatText, clockText, taskFailureText } from "../../contracts/server-text";
import type { Lang } from "../errors";

/** A tool result the offline model answers from. */
export interface ObservedResult {
  toolName: string;
  output: unknown;
  isError: boolean;
}

/** The offline label closing every answer. */
export const LABEL: Record<Lang, string> = {
  zh: "（离线规则模型：未配置大模型，以下内容直接来自工具结果，没有模型推理。设置 LLM_BASE_URL / LLM_MODEL 可获得完整分析。）",
  en: "(Offline rule model: no LLM is configured, so this answer restates tool results without model reasoning. Set LLM_BASE_URL / LLM_MODEL for full analysis.)",
};

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const records = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** Escapes text quoted from data so markdown and HTML in it render as the characters themselves. */
export function md(text: unknown): string {
  const s = typeof text === "string" ? text : text === undefined || text === null ? "" : String(text);
  return s.replace(/[\\`*[\]<>#|~&]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : `\\${c}`,
  );
}

function num(v: unknown, digits = 2): string {
  if (typeof v !== "number" || !Number.isFinite(v)) return "?";
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

/** `v` with exactly `digits` decimals (a figure compared across rows), `?` when it is not a number. */
function fixed(v: unknown, digits: number): string {
  return typeof v === "number" && Number.isFinite(v) ? v.toFixed(digits) : "?";
}

function pct(v: unknown): string {
  if (typeof v !== "number" || !Number.isFinite(v)) return "?";
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}%`;
}

const T = (lang: Lang, zh: string, en: string): string => (lang === "zh" ? zh : en);

function symbolLabel(o: Rec): string {
  const s = isRecord(o.symbol) ? o.symbol : undefined;
  if (s) return md(`${String(s.id ?? s.code ?? "")} ${String(s.name ?? "")}`.trim());
  return md(o.code ?? o.symbol ?? "");
}

const GRADE: Record<string, { zh: string; en: string }> = {
  healthy: { zh: "健康", en: "healthy" },
  warning: { zh: "警告", en: "warning" },
  danger: { zh: "危险", en: "danger" },
};
const grade = (g: unknown, lang: Lang) => (typeof g === "string" ? (GRADE[g]?.[lang] ?? md(g)) : "?");

const STOP_STATUS: Record<string, { zh: string; en: string }> = {
  ok: { zh: "安全", en: "clear" },
  near: { zh: "接近止损", en: "near the stop" },
  hit: { zh: "已触发", en: "hit" },
};

/** A Wyckoff reading (analyze_stock diagnose): phase, range, events, health, stops. */
function describeAnalysis(o: Rec, lang: Lang, parts: ReadonlySet<AnalysisPart>): string[] {
  const a = isRecord(o.analysis) ? o.analysis : o;
  const phase = isRecord(a.phase) ? a.phase : undefined;
  if (!phase) return [];
  const lines: string[] = [];
  const symbol = symbolLabel(o);
  const since = typeof phase.since === "string" ? T(lang, `（自 ${phase.since}）`, ` (since ${phase.since})`) : "";
  if (parts.has("structure")) {
    lines.push(
      T(
        lang,
        `**${symbol}** 当前阶段：${md(phase.name)}${since}，数据截至 ${md(a.asOf)}。`,
        `**${symbol}** phase: ${md(phase.name)}${since}, data as of ${md(a.asOf)}.`,
      ),
    );
    const tr = isRecord(a.tradingRange) ? a.tradingRange : undefined;
    lines.push(
      tr
        ? T(
            lang,
            `交易区间：支撑 ${num(tr.support)}，阻力 ${num(tr.resistance)}（${md(tr.from)} 至 ${md(tr.to)}${typeof tr.quality === "number" ? `，质量 ${num(tr.quality)}` : ""}）。`,
            `Trading range: support ${num(tr.support)}, resistance ${num(tr.resistance)} (${md(tr.from)} to ${md(tr.to)}${typeof tr.quality === "number" ? `, quality ${num(tr.quality)}` : ""}).`,
          )
        : T(lang, "当前没有可识别的交易区间。", "No trading range is open."),
    );
  }
  if (parts.has("events")) {
    const events = records(a.events).slice(-6);
    lines.push(
      events.length > 0
        ? T(lang, "威科夫事件：", "Wyckoff events:") +
            events
              .map(
                (e) =>
                  `\n- ${md(e.type)}${e.variant ? ` ${md(e.variant)}` : ""} ${md(e.date)} @ ${num(e.price)}${typeof e.volumeRatio === "number" ? T(lang, `，量比 ${num(e.volumeRatio)}`, `, volume ${num(e.volumeRatio)}×`) : ""}${typeof e.confidence === "number" ? T(lang, `，置信度 ${num(e.confidence)}`, `, confidence ${num(e.confidence)}`) : ""}`,
              )
              .join("")
        : T(lang, "当前结构内没有确认的威科夫事件。", "No Wyckoff event confirmed in the current structure."),
    );
    const triggers = records(a.triggers);
    if (triggers.length > 0)
      lines.push(
        T(lang, "触发信号：", "Triggers: ") +
          triggers.map((t) => `${md(t.type)} ${md(t.date)} (${md(t.status)})`).join(T(lang, "；", "; ")),
      );
  }
  if (parts.has("risk")) {
    const h = isRecord(a.health) ? a.health : undefined;
    if (h) {
      const reasons = Array.isArray(h.reasons)
        ? h.reasons
            .slice(0, 6)
            .map((r: unknown) => md(reasonText(String(r), lang)))
            .join(T(lang, "；", "; "))
        : "";
      lines.push(
        T(
          lang,
          `健康度：${num(h.score, 0)}/100（${grade(h.grade, lang)}）${reasons ? `：${reasons}` : ""}。`,
          `Health: ${num(h.score, 0)}/100 (${grade(h.grade, lang)})${reasons ? `: ${reasons}` : ""}.`,
        ),
      );
    }
    const st = isRecord(a.stops) ? a.stops : undefined;
    if (st) {
      const list = Object.entries(st)
        .filter(([, v]) => typeof v === "number")
        .map(([k, v]) => `${md(k)} ${num(v)}`)
        .join(T(lang, "，", ", "));
      if (list) lines.push(T(lang, `止损位：${list}。`, `Stops: ${list}.`));
    }
    const tg = isRecord(a.targets) ? a.targets : undefined;
    if (tg) {
      const list = Object.entries(tg)
        .filter(([, v]) => typeof v === "number")
        .map(([k, v]) => `${md(k)} ${num(v)}`)
        .join(T(lang, "，", ", "));
      if (list) lines.push(T(lang, `目标位：${list}。`, `Targets: ${list}.`));
    }
  }
  const p = isRecord(o.position) ? o.position : undefined;
  if (p && parts.has("risk"))
    lines.push(
      T(
        lang,
        `持仓：成本 ${num(p.cost)}，盈亏 ${pct(typeof p.pnlPct === "number" ? p.pnlPct * 100 : undefined)}，止损 ${num(p.stop)}（${STOP_STATUS[String(p.stopStatus)]?.zh ?? md(p.stopStatus)}），评级 ${grade(p.grade, lang)}。`,
        `Position: cost ${num(p.cost)}, P&L ${pct(typeof p.pnlPct === "number" ? p.pnlPct * 100 : undefined)}, stop ${num(p.stop)} (${STOP_STATUS[String(p.stopStatus)]?.en ?? md(p.stopStatus)}), grade ${grade(p.grade, lang)}.`,
      ),
    );
  return lines;
}

/** Which parts of a reading an answer gives (a pipeline step gives only its own). */
export type AnalysisPart = "structure" | "events" | "risk";
const ALL_PARTS: ReadonlySet<AnalysisPart> = new Set(["structure", "events", "risk"]);

function describeAnalyzeStock(o: Rec, lang: Lang, parts: ReadonlySet<AnalysisPart>): string[] {
  if (Array.isArray(o.data)) {
    const rows = records(o.data);
    const last = rows[rows.length - 1];
    const first = rows[0];
    const change =
      first && last && typeof first.close === "number" && typeof last.close === "number" && first.close > 0
        ? ((last.close - first.close) / first.close) * 100
        : undefined;
    return [
      T(
        lang,
        `**${symbolLabel(o)}** 最近 ${rows.length} 个交易日（${md(first?.date)} 至 ${md(last?.date)}）：收盘 ${num(last?.close)}，区间涨跌 ${pct(change)}。`,
        `**${symbolLabel(o)}** last ${rows.length} trading days (${md(first?.date)} to ${md(last?.date)}): close ${num(last?.close)}, change ${pct(change)} over the window.`,
      ),
    ];
  }
  if (o.analysis === null)
    return [
      T(
        lang,
        `**${symbolLabel(o)}** 无法做威科夫分析：${md(o.analysisNote)}`,
        `**${symbolLabel(o)}** cannot be read by the engine: ${md(o.analysisNote)}`,
      ),
    ];
  return describeAnalysis(o, lang, parts);
}

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

function describePortfolio(o: Rec, lang: Lang): string[] {
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

function describeScreening(r: Rec, lang: Lang): string[] {
  const s = isRecord(r.summary) ? r.summary : {};
  const regime = isRecord(r.regime) ? r.regime : {};
  const lines = [
    T(
      lang,
      `选股漏斗（${md(r.universe)}，截至 ${md(r.asOf)}${r.simulated ? "，⚠️ 模拟市场" : ""}）：扫描 ${num(s.total_scanned, 0)} → L1 流动性 ${num(s.layer1_passed, 0)} → L2 通道 ${num(s.layer2_passed, 0)} → L3 板块 ${num(s.layer3_passed, 0)} → L4 触发 ${num(s.layer4_passed, 0)} → L5 确认 ${num(s.layer5_passed, 0)}；市场状态 ${md(regime.state)}。`,
      `Screening funnel (${md(r.universe)}, as of ${md(r.asOf)}${r.simulated ? ", ⚠️ simulated market" : ""}): ${num(s.total_scanned, 0)} scanned → L1 liquidity ${num(s.layer1_passed, 0)} → L2 channels ${num(s.layer2_passed, 0)} → L3 sectors ${num(s.layer3_passed, 0)} → L4 triggers ${num(s.layer4_passed, 0)} → L5 confirmed ${num(s.layer5_passed, 0)}; regime ${md(regime.state)}.`,
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
          .map((t) => `${md(t.type)} ${md(t.date)} (${md(t.status)})`)
          .join(
            ", ",
          )}; ${T(lang, "结论", "verdict")} ${md(c.verdict)}${c.stop !== null && c.stop !== undefined ? `, ${T(lang, "止损", "stop")} ${num(c.stop)}` : ""}`,
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
      T(lang, `攻防决策（市场状态 ${md(result.regime)}）：`, `Strategy decision (regime ${md(result.regime)}): `) +
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

function describeTasks(o: Rec, lang: Lang): string[] {
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

function describeAccepted(o: Rec, lang: Lang): string[] {
  return [
    T(
      lang,
      `后台任务 \`${String(o.task_id).replace(/`/g, "")}\`（${kindTitle(o.kind, "zh")}）已提交，完成后结果会作为通知出现在这个对话里；也可以问“查看后台任务”。`,
      `Background task \`${String(o.task_id).replace(/`/g, "")}\` (${kindTitle(o.kind, "en")}) is queued; its result will arrive in this chat as a notification, or ask "check background tasks".`,
    ),
  ];
}

function describeRegime(o: Rec, lang: Lang): string[] {
  const idx = isRecord(o.index) ? o.index : {};
  const reasons = Array.isArray(o.reasons)
    ? o.reasons
        .slice(0, 4)
        .map(md)
        .join(T(lang, "；", "; "))
    : "";
  return [
    T(
      lang,
      `市场状态：**${md(o.state)}**（结构 ${md(o.structure)}${o.blocksNewEntries ? "，暂停新开仓" : ""}），依据 ${md(idx.id)} ${md(idx.name)} ${num(idx.close)}（${md(idx.date)}）${reasons ? `：${reasons}` : ""}。`,
      `Market regime: **${md(o.state)}** (structure ${md(o.structure)}${o.blocksNewEntries ? ", new entries blocked" : ""}), read from ${md(idx.id)} ${md(idx.name)} ${num(idx.close)} (${md(idx.date)})${reasons ? `: ${reasons}` : ""}.`,
    ),
  ];
}

function describeSearch(o: Rec, lang: Lang): string[] {
  const results = records(o.results).slice(0, 8);
  if (results.length === 0) return [T(lang, `没有找到“${md(o.query)}”。`, `Nothing found for "${md(o.query)}".`)];
  return [
    T(lang, `“${md(o.query)}”的搜索结果：`, `Results for "${md(o.query)}":`),
    ...results.map(
      (r) =>
        `- **${md(r.id)} ${md(r.name)}** ${r.latestClose === null ? "" : `${num(r.latestClose)} (${md(r.latestDate)})`}${r.simulated ? T(lang, "（模拟）", " (simulated)") : ""}`,
    ),
  ];
}

function describeGeneric(o: unknown, lang: Lang): string[] {
  if (!isRecord(o)) return [md(typeof o === "string" ? o : JSON.stringify(o)?.slice(0, 400))];
  const lines: string[] = [];
  const message = o.message ?? o.summary ?? o.note;
  if (typeof message === "string") lines.push(md(message));
  for (const [key, value] of Object.entries(o)) {
    if (["message", "summary", "note", "source", "provenance"].includes(key)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      lines.push(`- ${md(key)}: ${typeof value === "number" ? num(value) : md(String(value).slice(0, 160))}`);
    else if (Array.isArray(value))
      lines.push(T(lang, `- ${md(key)}：${value.length} 项`, `- ${md(key)}: ${value.length} item(s)`));
    if (lines.length >= 12) break;
  }
  return lines;
}

/** The provenance line every market answer must carry (source, as-of, simulated/stale flags). */
function describeSource(o: Rec, lang: Lang): string | undefined {
  const src = isRecord(o.source) ? o.source : isRecord(o.provenance) ? o.provenance : undefined;
  if (!src || typeof src.source !== "string") return undefined;
  const flags: string[] = [];
  if (src.simulated === true)
    flags.push(T(lang, "⚠️ 模拟数据，不是真实市场行情", "⚠️ simulated data, not a real market"));
  else if (src.source === "offline")
    flags.push(T(lang, "真实历史数据（离线数据包），非实时行情", "real historical data (offline bundle), not live"));
  if (src.stale === true && src.source !== "offline") flags.push(T(lang, "数据可能过时", "data may be stale"));
  if (
    src.adjust === "none" &&
    src.simulated !== true &&
    Array.isArray(src.notes) &&
    src.notes.some((n) => /Unadjusted/.test(String(n)))
  )
    flags.push(T(lang, "未复权", "unadjusted"));
  const asOf = typeof src.asOf === "string" ? src.asOf : "?";
  const head = T(
    lang,
    `数据来源：${md(src.source)}（截至 ${md(asOf)}）`,
    `Source: ${md(src.source)} (as of ${md(asOf)})`,
  );
  return [head, ...flags].join(T(lang, "；", "; "));
}

function describeError(output: unknown): string {
  if (isRecord(output) && isRecord(output.error)) return md(output.error.message ?? output.error.code);
  return md(typeof output === "string" ? output : JSON.stringify(output));
}

/** A task kind (a background tool's name) as a person reads it. */
function kindTitle(kind: unknown, lang: Lang): string {
  return TOOL_TITLE[String(kind)]?.[lang] ?? md(kind);
}

/** A backtest's exit mode (`contracts/backtest.ts` ExitMode) in words. */
const EXIT_MODE: Record<string, { zh: string; en: string }> = {
  sltp: { zh: "止损止盈", en: "stop-loss/take-profit" },
  close_only: { zh: "仅按收盘退出", en: "close only" },
  atr: { zh: "ATR 止损", en: "ATR stops" },
};

const TOOL_TITLE: Record<string, { zh: string; en: string }> = {
  analyze_stock: { zh: "个股诊断", en: "Stock analysis" },
  portfolio: { zh: "持仓", en: "Portfolio" },
  screen_stocks: { zh: "全市场选股", en: "Market screening" },
  run_backtest: { zh: "策略回测", en: "Backtest" },
  generate_ai_report: { zh: "研报", en: "Research report" },
  generate_strategy_decision: { zh: "攻防决策", en: "Strategy decision" },
  check_background_tasks: { zh: "后台任务", en: "Background tasks" },
  market_regime: { zh: "市场状态", en: "Market regime" },
  get_market_overview: { zh: "市场概览", en: "Market overview" },
  get_market_history: { zh: "指数历史", en: "Index history" },
  intraday_analysis: { zh: "分时分析", en: "Intraday" },
  search_stock_by_name: { zh: "搜索", en: "Search" },
  get_time: { zh: "时间与交易时段", en: "Time and session" },
};

/** The lines describing one successful result. */
export function describeResult(r: ObservedResult, lang: Lang, parts: ReadonlySet<AnalysisPart> = ALL_PARTS): string[] {
  const o = r.output;
  if (!isRecord(o)) return describeGeneric(o, lang);
  if (typeof o.task_id === "string" && typeof o.status === "string" && !("tasks" in o))
    return describeAccepted(o, lang);
  switch (r.toolName) {
    case "analyze_stock":
      return describeAnalyzeStock(o, lang, parts);
    case "portfolio":
      return describePortfolio(o, lang);
    case "check_background_tasks":
      return describeTasks(o, lang);
    case "market_regime":
      return describeRegime(o, lang);
    case "search_stock_by_name":
      return describeSearch(o, lang);
    case "get_time": {
      const clock = asClockReading(o);
      if (!clock) return describeGeneric(o, lang);
      const text = clockText(clock, lang);
      return [md(`${text.line}${T(lang, "，", "; ")}${text.open}${T(lang, "。", ".")}`), md(text.note)];
    }
    default: {
      const reading = describeAnalysis(o, lang, parts);
      return reading.length > 0 ? reading : describeGeneric(o, lang);
    }
  }
}

/** The answer after tool results. */
export function composeAnswer(
  results: readonly ObservedResult[],
  lang: Lang,
  parts: ReadonlySet<AnalysisPart> = ALL_PARTS,
): string {
  const sections = results.map((r) => {
    const head = `**${TOOL_TITLE[r.toolName]?.[lang] ?? md(r.toolName)}**`;
    if (r.isError) return `${head}${T(lang, "：调用失败 — ", ": failed — ")}${describeError(r.output)}`;
    const lines = describeResult(r, lang, parts);
    const source = isRecord(r.output) ? describeSource(r.output, lang) : undefined;
    return [head, ...lines, ...(source ? [source] : [])].join("\n");
  });
  return [...sections, "", LABEL[lang]].join("\n\n");
}

/** The answer when no tool fits: what can be asked offline (examples, never a list of internal tool names). */
export function composeHelp(lang: Lang): string {
  const zh = [
    "离线规则模型能回答这些问题（示例）：",
    "- “分析上证指数”、“分析 600000”、“分析创业板指”（真实 A 股日线）",
    "- “查看持仓”、“/checkup”（持仓盈亏、止损与健康度）",
    "- “/screen”全市场选股（模拟市场）、“/backtest”回测、“/report 600000”研报、“/strategy”攻防决策",
    "- “市场状态”、“上证指数历史”、“现在 A 股开盘了吗？”、“查看后台任务”、“你记得什么？”",
  ].join("\n");
  const en = [
    "The offline rule model answers questions like these:",
    '- "analyze 000001.SH", "analyze 600000", "analyze 399006" (real A-share daily bars)',
    '- "show my holdings", "/checkup" (P&L, stops and health)',
    '- "/screen" whole-market screening (simulated market), "/backtest", "/report 600000", "/strategy"',
    '- "market regime", "SSE index history", "is the A-share market open?", "check background tasks", "what do you remember?"',
  ].join("\n");
  return `${T(lang, zh, en)}\n\n${LABEL[lang]}`;
}

/** The answer about memory: what was recalled for this question, and whether this message will be saved. */
export function composeMemoryAnswer(
  lang: Lang,
  recalled: readonly string[],
  saving: readonly string[],
  asked: "save" | "recall",
): string {
  const lines: string[] = [];
  if (asked === "save")
    lines.push(
      saving.length > 0
        ? T(lang, "好的，我会记住：", "Noted. I will remember:") + saving.map((s) => `\n- ${md(s)}`).join("")
        : T(
            lang,
            "这句话里没有我会长期保存的偏好或决定（例如“我偏好……”、“我决定……”），所以不会存为记忆。",
            'Nothing in that message is a preference or decision I keep (say "I prefer …" or "I decided …"), so no memory is saved.',
          ),
    );
  if (asked === "recall" || recalled.length > 0)
    lines.push(
      recalled.length > 0
        ? T(lang, "与这个问题相关的记忆：", "What I remember that bears on this:") +
            recalled.map((m) => `\n- ${md(m)}`).join("")
        : T(lang, "还没有与这个问题相关的记忆。", "I have no memories that bear on this yet."),
    );
  return `${lines.join("\n\n")}\n\n${LABEL[lang]}`;
}
