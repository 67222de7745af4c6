/**
 * Templated answers of the offline model: what each tool's result means, said plainly in the user's
 * language (holdings with P&L and stops, a screening's layers and top candidates, a backtest's metrics
 * and caveats, a Wyckoff reading, the regime…), always labelled as the offline rule model (no
 * invented facts, no model judgement). Everything quoted from data is escaped for markdown, so a
 * name or message with `<code>` or `*` cannot change how the rest of the answer renders. Here: the
 * dispatch per tool and the short answers; readings, portfolios and tasks in `describe-*.ts`, the
 * primitives in `answer-format.ts`.
 */
import { regimeReasonText, structureText } from "../../contracts/reason-text";
import { REGIME_WORDS, SOURCE_WORDS, wordOf } from "../../contracts/wyckoff-words";
import { asClockReading, clockText } from "../../contracts/server-text";
import type { Lang } from "../errors";
import { isRecord, md, num, records, T, TOOL_TITLE, type Rec } from "./answer-format";
import { ALL_PARTS, describeAnalysis, describeAnalyzeStock, type AnalysisPart } from "./describe-analysis";
import { describePortfolio } from "./describe-portfolio";
import { describeAccepted, describeTasks } from "./describe-tasks";

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

function describeRegime(o: Rec, lang: Lang): string[] {
  const idx = isRecord(o.index) ? o.index : {};
  const reasons = Array.isArray(o.reasons)
    ? o.reasons
        .slice(0, 4)
        .map((r: unknown) => md(regimeReasonText(String(r), lang)))
        .join(T(lang, "；", "; "))
    : "";
  return [
    T(
      lang,
      `市场状态：**${md(wordOf(REGIME_WORDS, o.state, lang))}**（指数结构：${md(structureText(String(o.structure), lang))}${o.blocksNewEntries ? "，暂停新开仓" : ""}），依据 ${md(idx.id)} ${md(idx.name)} ${num(idx.close)}（${md(idx.date)}）${reasons ? `：${reasons}` : ""}。`,
      `Market regime: **${md(wordOf(REGIME_WORDS, o.state, lang))}** (index structure ${md(structureText(String(o.structure), lang))}${o.blocksNewEntries ? ", new entries blocked" : ""}), read from ${md(idx.id)} ${md(idx.name)} ${num(idx.close)} (${md(idx.date)})${reasons ? `: ${reasons}` : ""}.`,
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
  else if (src.source === "offline") flags.push(T(lang, "真实历史行情，非实时", "real historical bars, not live"));
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
    `数据来源：${md(wordOf(SOURCE_WORDS, src.source, "zh"))}（截至 ${md(asOf)}）`,
    `Source: ${md(wordOf(SOURCE_WORDS, src.source, "en"))} (as of ${md(asOf)})`,
  );
  return [head, ...flags].join(T(lang, "；", "; "));
}

function describeError(output: unknown): string {
  if (isRecord(output) && isRecord(output.error)) return md(output.error.message ?? output.error.code);
  return md(typeof output === "string" ? output : JSON.stringify(output));
}

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
    // each line its own paragraph: the reading room's markdown joins the lines of one paragraph into
    // one run of text, and reads a line right under a list item as that item running on
    return [head, ...lines, ...(source ? [source] : [])].join("\n\n");
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
