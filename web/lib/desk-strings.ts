/**
 * Strings of the research desk (scroll control, screening and backtest views, chart controls,
 * message tools, theme, notifications) in zh/en, beside the main table so they grow without touching
 * it, plus number and date formatting per UI language. `useDeskT()` follows the chosen language.
 */
import { useCallback } from "react";
import { useT } from "./lang-store";
import { format } from "./strings";

const zh = {
  changeTitle: "将要发生的变化",
  changeLoading: "正在计算变化…",
  changeRefused: "这项修改会被拒绝：{error}",
  changeBefore: "修改前",
  changeAfter: "修改后",
  changeCash: "可用资金",
  changePositions: "持仓数",
  changeNone: "（无）",
  changeCashMove: "资金变动 {amount}（每股 {price}）",
  changeCashSame: "资金不变",
  changeFile: "文件 {path}",
  changeFileNew: "新文件，{size}",
  changeFileReplace: "覆盖现有文件：{before} → {after}",
  changeTitleFrom: "会话标题",
  changeStop: "止损 {v}",
  rawInput: "原始输入（JSON）",
  bytes: "{n} 字节",
  jumpToLatest: "跳到最新",
  copy: "复制",
  copied: "已复制",
  exportMarkdown: "导出 Markdown",
  exportTranscript: "导出对话",
  themeLight: "浅色",
  themeDark: "深色",
  themeAuto: "跟随系统",
  themeLabel: "外观：{mode}",
  notifyOptIn: "任务完成时通知我",
  notifyOn: "已开启任务通知",
  notifyDenied: "浏览器拒绝了通知权限",
  notifyTitle: "后台任务完成",
  notifyBody: "{kind}：{status}",
  viewResult: "查看结果",
  hideResult: "收起结果",
  taskQueued: "排队中",
  taskRunning: "运行中",
  taskSucceeded: "已完成",
  taskFailed: "失败",
  taskCancelled: "已取消",
  stage_starting: "启动中",
  "stage_fan-out": "分批计算中",
  stage_screen: "筛选中",
  stage_report: "撰写研报中",
  stage_done: "已完成",
  stage_failed: "失败",
  stage_cancelled: "已取消",
  kind_screen_stocks: "选股",
  kind_run_backtest: "回测",
  kind_generate_ai_report: "研报",
  kind_generate_strategy_decision: "策略决策",
  screeningTitle: "选股结果",
  layerCounts: "各层数量",
  layer: "层",
  count: "数量",
  candidates: "候选股",
  symbol: "代码",
  name: "名称",
  sector: "行业",
  sectorStanding: "{sector}（{n} 只，强度 {strength}）",
  triggers: "触发",
  score: "评分",
  chart: "图表",
  verdictEntry: "可入场",
  holdDays: "持有 {n} 天",
  exitSltp: "止损止盈",
  exitCloseOnly: "仅按收盘退出",
  exitAtr: "ATR 止损",
  topN: "每日前 {n} 名",
  verdictWatch: "观察",
  noCandidates: "没有候选股。",
  backtestTitle: "回测结果",
  metrics: "指标",
  equityCurve: "权益曲线与基准",
  strategy: "策略",
  benchmark: "基准",
  trades: "交易",
  entryDate: "买入日",
  exitDate: "卖出日",
  entryPrice: "买入价",
  exitPrice: "卖出价",
  pnl: "盈亏",
  reason: "原因",
  noTrades: "没有交易。",
  totalReturn: "总收益",
  annualReturn: "年化收益",
  maxDrawdown: "最大回撤",
  sharpe: "夏普比率",
  winRate: "胜率",
  tradeCount: "交易次数",
  benchmarkReturn: "基准收益",
  excessReturn: "超额收益",
  rawResult: "原始数据",
  tasksToggle: "任务（{n}）",
  daily: "日线",
  weekly: "周线",
  movingAverages: "均线",
  volume: "成交量",
  symbolSearch: "搜索代码或名称",
  go: "打开",
  ohlcOpen: "开",
  ohlcHigh: "高",
  ohlcLow: "低",
  ohlcClose: "收",
  ohlcVolume: "量",
  change: "涨跌",
};

const en: Record<keyof typeof zh, string> = {
  changeTitle: "What will change",
  changeLoading: "Working out the change…",
  changeRefused: "This change would be refused: {error}",
  changeBefore: "Before",
  changeAfter: "After",
  changeCash: "Free cash",
  changePositions: "Positions",
  changeNone: "(none)",
  changeCashMove: "cash {amount} (at {price} a share)",
  changeCashSame: "cash unchanged",
  changeFile: "File {path}",
  changeFileNew: "new file, {size}",
  changeFileReplace: "replaces the existing file: {before} → {after}",
  changeTitleFrom: "Session title",
  changeStop: "stop {v}",
  rawInput: "Raw input (JSON)",
  bytes: "{n} bytes",
  jumpToLatest: "Jump to latest",
  copy: "Copy",
  copied: "Copied",
  exportMarkdown: "Export Markdown",
  exportTranscript: "Export transcript",
  themeLight: "Light",
  themeDark: "Dark",
  themeAuto: "System",
  themeLabel: "Theme: {mode}",
  notifyOptIn: "Notify me when a task finishes",
  notifyOn: "Task notifications on",
  notifyDenied: "The browser refused notifications",
  notifyTitle: "Background task finished",
  notifyBody: "{kind}: {status}",
  viewResult: "View result",
  hideResult: "Hide result",
  taskQueued: "queued",
  taskRunning: "running",
  taskSucceeded: "succeeded",
  taskFailed: "failed",
  taskCancelled: "cancelled",
  stage_starting: "starting",
  "stage_fan-out": "computing in batches",
  stage_screen: "screening",
  stage_report: "writing the report",
  stage_done: "done",
  stage_failed: "failed",
  stage_cancelled: "cancelled",
  kind_screen_stocks: "Screening",
  kind_run_backtest: "Backtest",
  kind_generate_ai_report: "Report",
  kind_generate_strategy_decision: "Strategy decision",
  screeningTitle: "Screening result",
  layerCounts: "Per-layer counts",
  layer: "Layer",
  count: "Count",
  candidates: "Candidates",
  symbol: "Symbol",
  name: "Name",
  sector: "Sector",
  sectorStanding: "{sector} ({n} stocks, strength {strength})",
  triggers: "Triggers",
  score: "Score",
  chart: "Chart",
  verdictEntry: "entry",
  holdDays: "hold {n} days",
  exitSltp: "stop-loss/take-profit",
  exitCloseOnly: "close only",
  exitAtr: "ATR stops",
  topN: "top {n} a day",
  verdictWatch: "watch",
  noCandidates: "No candidates.",
  backtestTitle: "Backtest result",
  metrics: "Metrics",
  equityCurve: "Equity curve vs benchmark",
  strategy: "Strategy",
  benchmark: "Benchmark",
  trades: "Trades",
  entryDate: "Entry",
  exitDate: "Exit",
  entryPrice: "Entry price",
  exitPrice: "Exit price",
  pnl: "P&L",
  reason: "Reason",
  noTrades: "No trades.",
  totalReturn: "Total return",
  annualReturn: "Annual return",
  maxDrawdown: "Max drawdown",
  sharpe: "Sharpe ratio",
  winRate: "Win rate",
  tradeCount: "Trades",
  benchmarkReturn: "Benchmark return",
  excessReturn: "Excess return",
  rawResult: "Raw data",
  tasksToggle: "Tasks ({n})",
  daily: "Daily",
  weekly: "Weekly",
  movingAverages: "MA",
  volume: "Volume",
  symbolSearch: "Search a symbol or name",
  go: "Open",
  ohlcOpen: "O",
  ohlcHigh: "H",
  ohlcLow: "L",
  ohlcClose: "C",
  ohlcVolume: "Vol",
  change: "Chg",
};

/** A key of this table. */
export type DeskKey = keyof typeof zh;

const TABLE = { zh, en } as const;

/** The locale tag of a UI language, for `Intl`. */
export function localeOf(lang: "zh" | "en"): string {
  return lang === "zh" ? "zh-CN" : "en-US";
}

/** Number formatting in the UI language. */
export interface Formats {
  num(value: number, digits?: number): string;
  pct(ratio: number, digits?: number): string;
  date(iso: string): string;
  dateTime(ms: number): string;
}

/** Formatters for a language (digits = fraction digits). */
export function formatsOf(lang: "zh" | "en"): Formats {
  const locale = localeOf(lang);
  return {
    num: (value, digits = 2) =>
      Number.isFinite(value)
        ? value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })
        : "—",
    pct: (ratio, digits = 2) =>
      Number.isFinite(ratio)
        ? ratio.toLocaleString(locale, {
            style: "percent",
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
          })
        : "—",
    date: (iso) => {
      const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
      return Number.isNaN(d.getTime())
        ? iso
        : d.toLocaleDateString(locale, { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });
    },
    dateTime: (ms) => new Date(ms).toLocaleString(locale),
  };
}

/** Translator and formatters for the desk in the current UI language. */
export function useDeskT(): {
  lang: "zh" | "en";
  t: (key: DeskKey, vars?: Record<string, string | number>) => string;
  f: Formats;
} {
  const { lang } = useT();
  const t = useCallback(
    (key: DeskKey, vars?: Record<string, string | number>) => format(TABLE[lang][key], vars),
    [lang],
  );
  return { lang, t, f: formatsOf(lang) };
}

/** A task status in the UI language. */
export function taskStatusKey(status: string): DeskKey | null {
  switch (status) {
    case "queued":
      return "taskQueued";
    case "running":
      return "taskRunning";
    case "succeeded":
      return "taskSucceeded";
    case "failed":
      return "taskFailed";
    case "cancelled":
      return "taskCancelled";
    default:
      return null;
  }
}

/** A task's progress stage in the UI language (unknown stages as they are). */
export function taskStageKey(stage: string): DeskKey | null {
  const key = `stage_${stage}`;
  return key in zh ? (key as DeskKey) : null;
}

/** A task kind in the UI language (unknown kinds as they are). */
export function taskKindKey(kind: string): DeskKey | null {
  const key = `kind_${kind}`;
  return key in zh ? (key as DeskKey) : null;
}
