/**
 * Server-written text in the UI language. The worker writes a few kinds of text from fixed templates
 * that the model reads too (and old rows keep): task notifications (`background/run-summaries.ts`,
 * `background/complete-task.ts`), backtest caveats and run notes (`engine/backtest/day-replay.ts`,
 * `background/*-jobs.ts`, `market/service/*`), trade notes (`tools/handlers/portfolio-plan.ts`), task
 * stages and error codes. This table maps every template onto Chinese, keeping the figures; numbers
 * stay as written (grouping is the same in zh-CN and en). An unknown line is shown as it came, never
 * dropped. `test/unit/contracts/server-text.test.ts` builds each template from its real source.
 */
import type { ErrorCode } from "./errors";
import { REGIME_WORDS, wordOf } from "./wyckoff-words";

/** A UI language. */
type Lang = "zh" | "en";

type Rule = [RegExp, (m: RegExpMatchArray) => string];

/** The sync's coverage statement (`contracts/market-sync.ts` coverageStatement) in Chinese. */
function coverageText(statement: string): string {
  const m = statement.match(/^([\d,]+) of ([\d,]+) symbols, bars as of (\S+)$/);
  return m ? `${m[2]} 只股票中 ${m[1]} 只的日线截至 ${m[3]}` : statement;
}

/** The first rule that matches `text` in full, or null. */
function apply(rules: readonly Rule[], text: string): string | null {
  for (const [re, out] of rules) {
    const m = text.match(re);
    if (m) return out(m);
  }
  return null;
}

const CAVEATS: Rule[] = [
  [
    /^Simulated market: results describe generated data, not a real market\.$/,
    () => "模拟市场：结果描述的是生成的数据，不是真实市场。",
  ],
  [
    /^Survivorship: the universe is today's symbol list; names delisted during the window are missing\.$/,
    () => "幸存者偏差：股票池是今天的名单，区间内退市的股票不在其中。",
  ],
  [
    /^Look-ahead: sectors and names are as of today, not as of each signal day\.$/,
    () => "前视偏差：行业和名称按今天计，而非各信号日当时。",
  ],
  [
    /^NAV books each trade's return on its exit day with weight = regime sizing \/ \(top_n × hold_days\)\.$/,
    () => "净值在每笔交易的卖出日记入其收益，权重 = 市场状态仓位 /（每日前 N 名 × 持有天数）。",
  ],
  [
    /^not enough history: signals need (\d+) bars of MA200 warm-up$/,
    (m) => `历史不足：信号需要 ${m[1]} 根 K 线的 MA200 预热`,
  ],
  [/^Coverage: (.+?) \(market sync\)\.$/, (m) => `覆盖率：${coverageText(m[1] ?? "")}（行情同步）。`],
  [
    /^index (\S+) not cached: regime assumed neutral, no relative strength$/,
    (m) => `指数 ${m[1]} 未缓存：市场状态按中性处理，不计算相对强度`,
  ],
  [
    /^no holdings given: pass holdings and free_cash for position decisions$/,
    () => "未提供持仓：需传入持仓和可用资金才能做仓位决策",
  ],
  [/^Intraday path simulated from the simulated daily bar\.$/, () => "分时路径由模拟日线生成。"],
  [
    /^Simulated market \(SIM\): generated data, not real securities\.$/,
    () => "模拟市场（SIM）：生成的数据，不是真实证券。",
  ],
];

/** A backtest caveat or a run note in `lang`. */
export function caveatText(caveat: string, lang: Lang): string {
  if (lang !== "zh") return caveat;
  return apply(CAVEATS, caveat) ?? caveat;
}

/** Several caveats joined by spaces (the notification's "Caveats:" line), each known one in Chinese. */
function caveatsLine(text: string): string {
  let out = text;
  for (const [re, to] of CAVEATS) {
    const loose = new RegExp(re.source.replace(/^\^/, "").replace(/\$$/, ""), "g");
    out = out.replace(loose, (...m: string[]) => to(m as unknown as RegExpMatchArray));
  }
  return out.replace(/。 /g, "。");
}

const yesNoneZh = (v: string) => (v === "none" ? "无" : v);

const NOTICE: Rule[] = [
  [
    /^Screening (\S+) finished \(market ([^/]+)\/([^,]+), board ([^,]+), as of ([^,)]+)(, SIMULATED data)?\)\.$/,
    (m) => `选股 ${m[1]} 已完成（市场 ${m[2]}/${m[3]}，板块 ${m[4]}，截至 ${m[5]}${m[6] ? "，模拟数据" : ""}）。`,
  ],
  [
    /^Funnel: (\d+) scanned → L1 (\d+) → L2 (\d+) → L3 (\d+) → L4 (\d+) → L5 (\d+)\. Regime (\S+)\.$/,
    (m) => `漏斗：扫描 ${m[1]} → L1 ${m[2]} → L2 ${m[3]} → L3 ${m[4]} → L4 ${m[5]} → L5 ${m[6]}。市场状态 ${m[7]}。`,
  ],
  [/^Top candidates: (.*)\.$/, (m) => `前几名候选：${m[1]?.replace(/; /g, "；")}。`],
  [/^No candidate reached L4\.$/, () => "没有候选股进入 L4。"],
  [/^For a report: (.*)\.$/, (m) => `可写研报：${m[1]}。`],
  [
    /^Full result: check_background_tasks with this task_id\.$/,
    () => "完整结果：用这个任务 ID 调用 check_background_tasks。",
  ],
  [
    /^Backtest (\S+) finished: (\S+), (\S+), hold (\d+)d, top (\d+), (\S+) \(SL (\S+)%, TP (\S+)%\)\.$/,
    (m) =>
      `回测 ${m[1]} 已完成：${m[2]}，${m[3]}，持有 ${m[4]} 天，每日前 ${m[5]} 名，${m[6]}（止损 ${m[7]}%，止盈 ${yesNoneZh(m[8] ?? "")}%）。`,
  ],
  [
    /^(\d+) trades, win (\S+)%, mean (\S+)%, median (\S+)%, Sharpe (\S+), MDD (\S+)%, Calmar (\S+), CVaR95 (\S+)%, total (\S+)%\.$/,
    (m) =>
      `${m[1]} 笔交易，胜率 ${m[2]}%，平均 ${m[3]}%，中位数 ${m[4]}%，夏普 ${m[5]}，最大回撤 ${m[6]}%，Calmar ${m[7]}，CVaR95 ${m[8]}%，总收益 ${m[9]}%。`,
  ],
  [/^Caveats: (.*)$/, (m) => `注意事项：${caveatsLine(m[1] ?? "")}`],
  [
    /^Report (\S+) finished for (\d+) stock\(s\)(?: \(rule-based: written by the engine's rules, not a language model\)| by (.+))\.$/,
    (m) =>
      `研报 ${m[1]} 已完成，共 ${m[2]} 只股票${m[3] ? `，由 ${m[3]} 撰写` : "（规则生成：由引擎规则撰写，不是语言模型）"}。`,
  ],
  [/^Camps: (.*)\.$/, (m) => `阵营：${m[1]?.replace(/; /g, "；")}。`],
  [/^No data for: (.*)\.$/, (m) => `没有数据：${m[1]}。`],
  [
    /^Strategy decision (\S+) finished \(regime ([^,)]+)(, buys frozen)?(, rule-based)?\)\.$/,
    (m) =>
      `策略决策 ${m[1]} 已完成（市场状态：${wordOf(REGIME_WORDS, m[2], "zh")}${m[3] ? "，暂停买入" : ""}${m[4] ? "，规则生成" : ""}）。`,
  ],
  [/^Orders: (.*)\.$/, (m) => `指令：${m[1]?.replace(/; /g, "；")}。`],
  [/^No orders\.$/, () => "没有指令。"],
  [
    /^Background task (\S+) \((\S+)\) failed: (.*)$/,
    (m) => `后台任务 ${m[1]}（${m[2]}）失败：${taskFailureText(m[3] ?? "", "zh")}`,
  ],
  [/^Screening (\S+) refused: (.*)$/, (m) => `选股 ${m[1]} 被拒绝：${taskFailureText(m[2] ?? "", "zh")}`],
  [
    /^Screening (\S+) found nothing to scan: (.*)$/,
    (m) => `选股 ${m[1]} 没有可扫描的股票：${taskFailureText(m[2] ?? "", "zh")}`,
  ],
];

const FAILURE: Rule[] = [
  [/^permanent failure: (.*)$/, (m) => `无法完成：${failureZh(m[1] ?? "")}`],
  [
    /^gave up after repeated failures(?: of (\S+))? \(retries exhausted\)$/,
    (m) => `多次重试仍失败，已放弃${m[1] ? `（${m[1]}）` : ""}`,
  ],
  [/^malformed message: expected an object with a string `kind`$/, () => "消息格式错误：应为带字符串 kind 的对象"],
  [/^unknown message kind: (.*)$/, (m) => `未知的消息类型：${m[1]}`],
  [/^could not queue the task: (.*)$/, (m) => `任务无法进入队列：${m[1]}`],
  [/^invalid (\S+) input: (.*)$/, (m) => `${m[1]} 的输入无效：${m[2]}`],
  [/^malformed (\S+) message$/, (m) => `${m[1]} 消息格式错误`],
  [/^task\.run message without a taskId$/, () => "task.run 消息缺少 taskId"],
  [/^no task (\S+)$/, (m) => `没有任务 ${m[1]}`],
  [/^unknown task kind (\S+)$/, (m) => `未知的任务类型 ${m[1]}`],
  [/^task (\S+) is not a backtest$/, (m) => `任务 ${m[1]} 不是回测`],
  [/^task (\S+) has no plan yet$/, (m) => `任务 ${m[1]} 尚未完成规划`],
  [
    /^no cached (\S+) stocks on board (\S+): screening reads cached bars only \(MARKET_DATA=(\S+)\)(; the offline data has no US stocks .*)?$/,
    (m) =>
      `没有缓存的 ${m[1]} 股票（板块 ${m[2]}）：选股只读缓存的行情（MARKET_DATA=${m[3]}）${m[4] ? "；离线数据不含美股（离线的全市场选股是模拟 A 股市场，market cn）" : ""}`,
  ],
  [
    /^The live A-share market has never been synced, .*$/,
    () =>
      "实时 A 股市场从未同步过，没有完整的市场可读。运维人员用 POST /api/admin/market-sync（ADMIN_TOKEN）启动同步；每个交易日收盘后（北京时间 15:10）也会自动运行。GET /api/market/sync 显示进度和覆盖率。",
  ],
  [
    /^The live US universe has never been synced, .*$/,
    () =>
      "实时美股股票池从未同步过，没有美股市场可读。运维人员用 POST /api/admin/market-sync?market=us（ADMIN_TOKEN）启动同步；每个美股收盘后（UTC 22:30）也会自动运行。股票池默认是标普 500（US_UNIVERSE 可指定其他）；GET /api/market/sync?market=us 显示进度和覆盖率。",
  ],
];

function failureZh(reason: string): string {
  return apply(FAILURE, reason) ?? reason;
}

/**
 * Why a background task failed (`TaskView.error`, written by `background/complete-task.ts` failTask
 * from the dead letter's reason: the queue consumer's wrapping, the jobs' permanent errors, the
 * market-sync gate's refusal) in `lang`; an unknown reason is shown as written.
 */
export function taskFailureText(reason: string, lang: Lang): string {
  return lang === "zh" ? failureZh(reason) : reason;
}

/** A task notification's text (one template per line) in `lang`; unknown lines stay as written. */
export function noticeText(text: string, lang: Lang): string {
  if (lang !== "zh") return text;
  return text
    .split("\n")
    .map((line) => apply(NOTICE, line) ?? line)
    .join("\n");
}

const NOTE: Rule[] = [
  [/^cash −(\S+)$/, (m) => `资金 −${m[1]}`],
  [/^recorded, cash unchanged$/, () => "仅记录，资金不变"],
  [
    /^recorded, cash unchanged \(free cash (\S+) does not cover (\S+)\)$/,
    (m) => `仅记录，资金不变（可用资金 ${m[1]} 不足 ${m[2]}）`,
  ],
  [/^sold at (\S+), cash \+(\S+)$/, (m) => `以 ${m[1]} 卖出，资金 +${m[2]}`],
  [/^changed (.+)$/, (m) => `修改了 ${m[1]}`],
  [
    /^imported (\d+) position\(s\) \((\S+)\)$/,
    (m) => `导入 ${m[1]} 个持仓（${m[2] === "replace" ? "替换" : m[2] === "merge" ? "合并" : m[2]}）`,
  ],
];

/** A trade record's note in `lang`: the server's part after " · " (or the whole note) translated, the person's words kept. */
export function tradeNoteText(note: string, lang: Lang): string {
  if (lang !== "zh") return note;
  const at = note.lastIndexOf(" · ");
  const [own, server] = at >= 0 ? [note.slice(0, at), note.slice(at + 3)] : ["", note];
  const zh = apply(NOTE, server);
  if (zh === null) return note;
  return own ? `${own} · ${zh}` : zh;
}

const CODE_ZH: Record<ErrorCode, string> = {
  invalid_input: "输入无效",
  not_found: "未找到",
  conflict: "冲突",
  payload_too_large: "内容过大",
  insufficient_data: "数据不足",
  upstream_unavailable: "上游不可用",
  rate_limited: "请求过于频繁",
  unauthorized: "未登录",
  forbidden: "无权访问",
  internal: "内部错误",
};
const CODE_ZH_EXTRA: Record<string, string> = {
  refused: "已拒绝",
  doom_loop: "重复调用被拦下",
  cancelled: "已取消",
  timeout: "超时",
};

/**
 * A tool error as written on the stream (`code: message`) in `lang`: the code named in words, the
 * message from `messages[lang]` when the server sent one (`toolMetadata.messages`), else as written.
 */
export function toolErrorText(errorText: string, lang: Lang, messages?: { zh?: string; en?: string }): string {
  const at = errorText.indexOf(": ");
  const code = at > 0 ? errorText.slice(0, at) : "";
  const rest = at > 0 ? errorText.slice(at + 2) : errorText;
  const localized = messages?.[lang];
  if (lang !== "zh") return localized ? `${code ? `${code}: ` : ""}${localized}` : errorText;
  const label = (CODE_ZH as Record<string, string>)[code] ?? CODE_ZH_EXTRA[code];
  if (!label) return localized ?? errorText;
  return `${label}：${localized ?? rest}`;
}

const EXIT_ZH: Record<string, string> = {
  "stop loss": "止损",
  "trailing stop": "移动止损",
  "take profit": "止盈",
  "holding period ended": "持有期满",
  "window end": "区间结束",
};

/** A backtest trade's exit reason (`engine/backtest/simulate-trade.ts`) in `lang`. */
export function exitReasonText(reason: string, lang: Lang): string {
  return lang === "zh" ? (EXIT_ZH[reason] ?? reason) : reason;
}

const VERDICT_REASON: Rule[] = [
  [/^awaiting next-day confirmation$/, () => "等待次日确认"],
  [/^entries blocked in regime (\S+)$/, (m) => `市场状态为${wordOf(REGIME_WORDS, m[1], "zh")}，暂停开仓`],
  [/^closed under the structural stop$/, () => "收盘跌破结构止损"],
  [/^trigger confirmed, regime allows entries$/, () => "触发已确认，市场状态允许开仓"],
];

/** A screening candidate's verdict reason (`engine/screen/reduce-funnel.ts`) in `lang`. */
export function verdictReasonText(reason: string, lang: Lang): string {
  return lang === "zh" ? (apply(VERDICT_REASON, reason) ?? reason) : reason;
}

const SUMMARY: Rule[] = [
  [
    /^(opened|added to|updated|removed) (\S+) (.+) (\S+) @ (\S+?)(?:, stop (\S+))?(?:; (.+))?$/,
    (m) => {
      const verb = { opened: "建仓", "added to": "加仓", updated: "更新", removed: "清仓" }[m[1] ?? ""] ?? m[1];
      const stop = m[6] ? `，止损 ${m[6]}` : "";
      const note = m[7] ? `；${apply(NOTE, m[7]) ?? m[7]}` : "";
      return `${verb} ${m[2]} ${m[3]} ${m[4]} 股 @ ${m[5]}${stop}${note}`;
    },
  ],
  [/^free cash set to (\S+)$/, (m) => `可用资金设为 ${m[1]}`],
  [/^deleted trade records(.*)$/, (m) => `删除了交易记录${m[1]}`],
  [/^imported (\d+) position\(s\) \((\S+)\)$/, (m) => apply(NOTE, m[0]) ?? m[0]],
];

/** A portfolio change's summary (`tools/handlers/portfolio-plan.ts`, `portfolio-import.ts`) in `lang`. */
export function changeSummaryText(summary: string, lang: Lang): string {
  return lang === "zh" ? (apply(SUMMARY, summary) ?? summary) : summary;
}

const SESSION_TEXT: Record<string, { zh: string; en: string }> = {
  weekend: { zh: "周末休市", en: "weekend, closed" },
  pre_open: { zh: "开盘前", en: "before the open" },
  morning: { zh: "上午交易时段", en: "morning session" },
  lunch_break: { zh: "午间休市", en: "lunch break" },
  afternoon: { zh: "下午交易时段", en: "afternoon session" },
  regular: { zh: "常规交易时段", en: "regular session" },
  after_close: { zh: "已收盘", en: "after the close" },
};
const WEEKDAY_ZH: Record<string, string> = {
  Monday: "星期一",
  Tuesday: "星期二",
  Wednesday: "星期三",
  Thursday: "星期四",
  Friday: "星期五",
  Saturday: "星期六",
  Sunday: "星期日",
};

/** What `get_time` returns, as far as the clock line reads it. */
export interface ClockReading {
  market: string;
  localDate: string;
  localTime: string;
  weekday: string;
  session: string;
  isTradingHours: boolean;
}

/** The market clock in words (`get_time`'s answer): local date, weekday, time, session, open or not, the holiday caveat. */
export function clockText(c: ClockReading, lang: Lang): { line: string; open: string; note: string } {
  const zh = lang === "zh";
  const place = c.market === "us" ? (zh ? "纽约" : "New York") : zh ? "上海" : "Shanghai";
  const weekday = zh ? (WEEKDAY_ZH[c.weekday] ?? c.weekday) : c.weekday;
  const session = SESSION_TEXT[c.session]?.[lang] ?? c.session;
  return {
    line: zh
      ? `${place}时间 ${c.localDate} ${weekday} ${c.localTime}，${session}`
      : `${place} time ${c.localDate} ${weekday} ${c.localTime}, ${session}`,
    open: c.isTradingHours
      ? zh
        ? "正在交易"
        : "the market is open"
      : zh
        ? "现在不在交易时段"
        : "the market is closed now",
    note: zh
      ? "未计入交易所节假日：工作日按交易日计。"
      : "Exchange holidays are not modelled: a weekday counts as a trading day.",
  };
}

/** `value` read as a clock reading, or null. */
export function asClockReading(value: unknown): ClockReading | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const s = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : null);
  const [market, localDate, localTime, weekday, session] = [
    "market",
    "localDate",
    "localTime",
    "weekday",
    "session",
  ].map(s);
  if (!market || !localDate || !localTime || !weekday || !session || typeof v.isTradingHours !== "boolean") return null;
  return { market, localDate, localTime, weekday, session, isTradingHours: v.isTradingHours };
}
