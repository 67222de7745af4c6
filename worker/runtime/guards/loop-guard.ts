/**
 * Loop guard: some questions need data, so the runtime — not only the prompt —
 * requires a tool: viewing or diagnosing holdings → `portfolio`, "analyze <code>" → `analyze_stock`,
 * and follow-ups such as "做一下体检" judged with the recent messages. An answer without the tool gets
 * a corrective message (telling "only a plan" from "answered without data"), at most 2 times.
 */

/** Seed 000: corrective retries before the answer is flagged. */
export const MAX_GUARD_RETRIES = 2;

/** A tool the turn must call. */
export interface Expectation {
  tool: string;
  reason: string;
}

const CODE = /(?<![\d.])(?:sh|sz|bj)?\d{6}(?!\d)|\bSIM\.\d{4}\b|\b(?:SH|SZ|BJ|US)\.[A-Z0-9]{1,6}\b/i;

/** What the user's message requires, given the recent conversation and the tools that exist. */
export function expectationFor(
  text: string,
  recent: readonly string[],
  tools: ReadonlySet<string>,
): Expectation | undefined {
  const holdings = /持仓|仓位|我的组合|my (portfolio|holdings|positions)/i;
  const checkup = /体检|诊断|健康|checkup|diagnos|health check/i;
  const want = (tool: string, reason: string) => (tools.has(tool) ? { tool, reason } : undefined);
  if (holdings.test(text)) return want("portfolio", checkup.test(text) ? "portfolio diagnosis" : "portfolio view");
  if (checkup.test(text) && text.length <= 20 && recent.some((r) => holdings.test(r)))
    return want("portfolio", "portfolio follow-up");
  if (CODE.test(text) && /分析|诊断|看看|阶段|analy[sz]e|diagnos|wyckoff|phase/i.test(text))
    return want("analyze_stock", "single-symbol analysis");
  return undefined;
}

/** True when an answer is only a plan ("I will…") rather than a data-free answer. */
export function isPlanOnly(answer: string): boolean {
  const t = answer.trim();
  return t.length < 300 && /^(我将|我会|我先|接下来|首先|让我|I will|I'll|Let me|First,? I)/i.test(t);
}

/** The corrective message for a missed tool. */
export function correctiveMessage(e: Expectation, planOnly: boolean, lang: "zh" | "en"): string {
  if (lang === "zh") {
    return planOnly
      ? `[运行时提醒] 你只给出了计划，没有调用工具。请现在直接调用 ${e.tool} 获取数据，再基于结果回答。`
      : `[运行时提醒] 这个问题（${e.reason}）需要 ${e.tool} 的数据，但你没有调用它就回答了。请先调用 ${e.tool}，再基于结果回答。`;
  }
  return planOnly
    ? `[runtime reminder] You only described a plan without calling a tool. Call ${e.tool} now and answer from its result.`
    : `[runtime reminder] This question (${e.reason}) needs data from ${e.tool}, but you answered without calling it. Call ${e.tool} first, then answer from its result.`;
}

/** The warning put before an answer given without the required data. */
export function unverifiedWarning(e: Expectation, lang: "zh" | "en"): string {
  return lang === "zh"
    ? `⚠️ 注意：本回答没有调用 ${e.tool} 获取数据，内容未经工具核实，可能不可靠。`
    : `⚠️ Note: this answer was given without calling ${e.tool}; it is not backed by tool data and may be unreliable.`;
}
