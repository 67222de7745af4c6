/**
 * The offline model's formatting primitives: markdown escaping of quoted data, numbers and percents,
 * the zh/en switch, a symbol's label, and the words for grades, stop states and tool titles.
 */
import type { Lang } from "../errors";

export type Rec = Record<string, unknown>;

export function isRecord(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const records = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** Escapes text quoted from data so markdown and HTML in it render as the characters themselves. */
export function md(text: unknown): string {
  const s = typeof text === "string" ? text : text === undefined || text === null ? "" : String(text);
  return s.replace(/[\\`*[\]<>#|~&]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : `\\${c}`,
  );
}

export function num(v: unknown, digits = 2): string {
  if (typeof v !== "number" || !Number.isFinite(v)) return "?";
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

/** `v` with exactly `digits` decimals (a figure compared across rows), `?` when it is not a number. */
export function fixed(v: unknown, digits: number): string {
  return typeof v === "number" && Number.isFinite(v) ? v.toFixed(digits) : "?";
}

export function pct(v: unknown): string {
  if (typeof v !== "number" || !Number.isFinite(v)) return "?";
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}%`;
}

export const T = (lang: Lang, zh: string, en: string): string => (lang === "zh" ? zh : en);

export function symbolLabel(o: Rec): string {
  const s = isRecord(o.symbol) ? o.symbol : undefined;
  if (s) return md(`${String(s.id ?? s.code ?? "")} ${String(s.name ?? "")}`.trim());
  return md(o.code ?? o.symbol ?? "");
}

export const GRADE: Record<string, { zh: string; en: string }> = {
  healthy: { zh: "健康", en: "healthy" },
  warning: { zh: "警告", en: "warning" },
  danger: { zh: "危险", en: "danger" },
};
export const grade = (g: unknown, lang: Lang) => (typeof g === "string" ? (GRADE[g]?.[lang] ?? md(g)) : "?");

export const STOP_STATUS: Record<string, { zh: string; en: string }> = {
  ok: { zh: "安全", en: "clear" },
  near: { zh: "接近止损", en: "near the stop" },
  hit: { zh: "已触发", en: "hit" },
};

/** A task kind (a background tool's name) as a person reads it. */
export function kindTitle(kind: unknown, lang: Lang): string {
  return TOOL_TITLE[String(kind)]?.[lang] ?? md(kind);
}

export const TOOL_TITLE: Record<string, { zh: string; en: string }> = {
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
