/**
 * Templated answers of the offline model: what the tools returned, said plainly in the user's
 * language, and always labelled as the offline rule model (no invented facts, no model judgement).
 */
import type { Lang } from "../errors";

/** A tool result the offline model answers from. */
export interface ObservedResult {
  toolName: string;
  output: unknown;
  isError: boolean;
}

const LABEL: Record<Lang, string> = {
  zh: "（离线规则模型：未配置大模型，以下内容直接来自工具结果，没有模型推理。设置 LLM_BASE_URL / LLM_MODEL 可获得完整分析。）",
  en: "(Offline rule model: no LLM is configured, so this answer restates tool results without model reasoning. Set LLM_BASE_URL / LLM_MODEL for full analysis.)",
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function scalar(v: unknown): string | undefined {
  if (typeof v === "string") return v.length > 160 ? `${v.slice(0, 157)}…` : v;
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(2);
  if (typeof v === "boolean") return v ? "yes" : "no";
  return undefined;
}

/** Describes a Wyckoff analysis (CONTRACTS.md shape) when the output has one. */
function describeAnalysis(o: Record<string, unknown>, lang: Lang): string[] | undefined {
  const analysis = isRecord(o.analysis) ? o.analysis : o;
  const phase = isRecord(analysis.phase) ? analysis.phase : undefined;
  if (!phase) return undefined;
  const lines: string[] = [];
  const name = String(phase.name);
  const brief = isRecord(o.symbol) ? o.symbol : undefined;
  const symbol = brief
    ? `${String(brief.id ?? brief.code ?? "")} ${String(brief.name ?? "")}`.trim()
    : (scalar(analysis.symbol) ?? scalar(o.code) ?? "");
  const since =
    typeof phase.since === "string" ? (lang === "zh" ? `（自 ${phase.since}）` : ` (since ${phase.since})`) : "";
  lines.push(
    lang === "zh"
      ? `**${symbol}** 当前阶段：${name}${since}，数据截至 ${String(analysis.asOf ?? "?")}。`
      : `**${symbol}** phase: ${name}${since}, data as of ${String(analysis.asOf ?? "?")}.`,
  );
  const tr = isRecord(analysis.tradingRange) ? analysis.tradingRange : undefined;
  if (tr)
    lines.push(
      lang === "zh"
        ? `交易区间：支撑 ${scalar(tr.support)}，阻力 ${scalar(tr.resistance)}（${String(tr.from)} 至 ${String(tr.to)}）。`
        : `Trading range: support ${scalar(tr.support)}, resistance ${scalar(tr.resistance)} (${String(tr.from)} to ${String(tr.to)}).`,
    );
  const events = Array.isArray(analysis.events) ? analysis.events.filter(isRecord).slice(-5) : [];
  if (events.length > 0) {
    const list = events.map((e) => `${String(e.type)} ${String(e.date)} @ ${scalar(e.price) ?? "?"}`).join("; ");
    lines.push(lang === "zh" ? `最近事件：${list}。` : `Recent events: ${list}.`);
  }
  const health = isRecord(analysis.health) ? analysis.health : undefined;
  if (health)
    lines.push(
      lang === "zh"
        ? `健康度：${scalar(health.score)}/100（${String(health.grade)}）。`
        : `Health: ${scalar(health.score)}/100 (${String(health.grade)}).`,
    );
  return lines;
}

/** The provenance line every market answer must carry (source, as-of, simulated/stale flags). */
function describeSource(o: Record<string, unknown>, lang: Lang): string | undefined {
  const src = isRecord(o.source) ? o.source : isRecord(o.provenance) ? o.provenance : undefined;
  if (!src || typeof src.source !== "string") return undefined;
  const flags: string[] = [];
  if (src.simulated === true)
    flags.push(lang === "zh" ? "⚠️ 模拟数据，不是真实市场行情" : "⚠️ simulated data, not a real market");
  if (src.stale === true) flags.push(lang === "zh" ? "数据可能过时" : "data may be stale");
  const asOf = typeof src.asOf === "string" ? src.asOf : "?";
  const head = lang === "zh" ? `数据来源：${src.source}（截至 ${asOf}）` : `Source: ${src.source} (as of ${asOf})`;
  return [head, ...flags].join(lang === "zh" ? "；" : "; ");
}

function describeGeneric(o: unknown, lang: Lang): string[] {
  if (!isRecord(o)) return [scalar(o) ?? JSON.stringify(o).slice(0, 400)];
  const lines: string[] = [];
  const message = scalar(o.message) ?? scalar(o.summary);
  if (message) lines.push(message);
  for (const [key, value] of Object.entries(o)) {
    if (key === "message" || key === "summary") continue;
    const s = scalar(value);
    if (s !== undefined) lines.push(`- ${key}: ${s}`);
    else if (Array.isArray(value))
      lines.push(lang === "zh" ? `- ${key}：${value.length} 项` : `- ${key}: ${value.length} item(s)`);
    if (lines.length >= 12) break;
  }
  return lines;
}

function describeError(output: unknown): string {
  if (isRecord(output) && isRecord(output.error)) return String(output.error.message ?? output.error.code);
  return scalar(output) ?? JSON.stringify(output);
}

/** The answer after tool results. */
export function composeAnswer(results: readonly ObservedResult[], lang: Lang): string {
  const sections = results.map((r) => {
    const head = `**${r.toolName}**`;
    if (r.isError) return `${head}: ${lang === "zh" ? "调用失败 —" : "failed —"} ${describeError(r.output)}`;
    const lines = (isRecord(r.output) && describeAnalysis(r.output, lang)) || describeGeneric(r.output, lang);
    const source = isRecord(r.output) ? describeSource(r.output, lang) : undefined;
    return [head, ...lines, ...(source ? [source] : [])].join("\n");
  });
  return [...sections, "", LABEL[lang]].join("\n\n");
}

/** The answer when no tool fits: what the offline model can do, and which tools are missing. */
export function composeHelp(lang: Lang, toolNames: readonly string[], missing: readonly string[]): string {
  const available = toolNames.join(", ");
  if (lang === "zh") {
    const lack = missing.length > 0 ? `\n\n这个问题需要的工具（${missing.join("、")}）在当前版本中还不可用。` : "";
    return `我可以调用这些工具：${available}。试试“现在开盘了吗？”、“查看后台任务”，或“分析 <代码>”。${lack}\n\n${LABEL.zh}`;
  }
  const lack =
    missing.length > 0
      ? `\n\nThe tool this question needs (${missing.join(", ")}) is not available in this build yet.`
      : "";
  return `I can call these tools: ${available}. Try "is the market open?", "check background tasks" or "analyze <code>".${lack}\n\n${LABEL.en}`;
}
