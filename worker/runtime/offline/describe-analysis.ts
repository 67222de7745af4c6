/**
 * The offline model's Wyckoff readings: analyze_stock's phase, range, events, health and stops (only
 * the parts a pipeline step asks for), or the last bars when no reading is possible.
 */
import { reasonText } from "../../contracts/reason-text";
import {
  LEVEL_WORDS,
  phaseWords,
  TRIGGER_STATUS_WORDS,
  TRIGGER_WORDS,
  VARIANT_WORDS,
  wordOf,
} from "../../contracts/wyckoff-words";
import type { Lang } from "../errors";
import { grade, isRecord, md, num, pct, records, STOP_STATUS, symbolLabel, T, type Rec } from "./answer-format";

/** A Wyckoff reading (analyze_stock diagnose): phase, range, events, health, stops. */
export function describeAnalysis(o: Rec, lang: Lang, parts: ReadonlySet<AnalysisPart>): string[] {
  const a = isRecord(o.analysis) ? o.analysis : o;
  const phase = isRecord(a.phase) ? a.phase : undefined;
  if (!phase) return [];
  const lines: string[] = [];
  const symbol = symbolLabel(o);
  const since = typeof phase.since === "string" ? T(lang, `，自 ${md(phase.since)}`, `, since ${md(phase.since)}`) : "";
  if (parts.has("structure")) {
    lines.push(
      T(
        lang,
        `**${symbol}** 当前阶段：${md(phaseWords(phase.name, lang))}（${md(phase.name)}${since}），数据截至 ${md(a.asOf)}。`,
        `**${symbol}** phase: ${md(phaseWords(phase.name, lang))} (${md(phase.name)}${since}), data as of ${md(a.asOf)}.`,
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
                  `\n- ${md(e.type)}${e.variant ? T(lang, `（${md(wordOf(VARIANT_WORDS, e.variant, lang))}）`, ` ${md(wordOf(VARIANT_WORDS, e.variant, lang))}`) : ""} ${md(e.date)} @ ${num(e.price)}${typeof e.volumeRatio === "number" ? T(lang, `，量比 ${num(e.volumeRatio)}`, `, volume ${num(e.volumeRatio)}×`) : ""}${typeof e.confidence === "number" ? T(lang, `，置信度 ${num(e.confidence)}`, `, confidence ${num(e.confidence)}`) : ""}`,
              )
              .join("")
        : T(lang, "当前结构内没有确认的威科夫事件。", "No Wyckoff event confirmed in the current structure."),
    );
    const triggers = records(a.triggers);
    if (triggers.length > 0)
      lines.push(
        T(lang, "触发信号：", "Triggers: ") + triggers.map((t) => triggerText(t, lang)).join(T(lang, "；", "; ")),
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
    const close = isRecord(a.indicators) ? a.indicators.close : undefined;
    if (st) {
      const list = Object.entries(st)
        .filter(([, v]) => typeof v === "number")
        .map(
          ([k, v]) =>
            `${md(wordOf(LEVEL_WORDS, k, lang))} ${num(v)}${typeof close === "number" && k !== "atr" && (v as number) >= close ? T(lang, "（不低于收盘价：已触发）", " (at or above the close: hit)") : ""}`,
        )
        .join(T(lang, "，", ", "));
      if (list) lines.push(T(lang, `止损位：${list}。`, `Stops: ${list}.`));
    }
    const tg = isRecord(a.targets) ? a.targets : undefined;
    if (tg) {
      const list = Object.entries(tg)
        .filter(([, v]) => typeof v === "number")
        .map(([k, v]) => `${md(wordOf(LEVEL_WORDS, k, lang))} ${num(v)}`)
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

/** A trigger as a reader sees it: kind, date and its confirmation state, in `lang`. */
export function triggerText(t: Rec, lang: Lang): string {
  const kind = md(wordOf(TRIGGER_WORDS, t.type, lang));
  const status = md(wordOf(TRIGGER_STATUS_WORDS, t.status, lang));
  return T(lang, `${kind} ${md(t.date)}（${status}）`, `${kind} ${md(t.date)} (${status})`);
}

/** Which parts of a reading an answer gives (a pipeline step gives only its own). */
export type AnalysisPart = "structure" | "events" | "risk";
export const ALL_PARTS: ReadonlySet<AnalysisPart> = new Set(["structure", "events", "risk"]);

export function describeAnalyzeStock(o: Rec, lang: Lang, parts: ReadonlySet<AnalysisPart>): string[] {
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
