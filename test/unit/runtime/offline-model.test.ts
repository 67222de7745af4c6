/**
 * The offline rule model's decisions: it routes intents and the built-in skills to their tools, reads
 * only the person's words inside the turn's context, keeps the person's language whatever the
 * memories say, and gives each deep-dive pipeline step its own part. Its answers: offline-answers.test.ts.
 */
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { extractSymbol, planCalls } from "../../../worker/runtime/offline/intents";
import { decide } from "../../../worker/runtime/offline-model";
import { BUILTIN_SKILLS } from "../../../worker/runtime/skills/builtin";
import { turnContext } from "../../../worker/runtime/prompts/system";
import { withTurnContext } from "../../../worker/runtime/transcript";
import { notificationPrompt } from "../../../worker/runtime/turn-inputs";
import { DEEP_DIVE_STEPS } from "./deep-dive-steps";
import { calls, options, system, text, toolTurn, user, visible } from "./offline-model-prompts";
describe("offline intents reach every tool the question implies", () => {
  it.each([
    ["查看持仓", "portfolio", { mode: "diagnose" }],
    ["show my holdings", "portfolio", { mode: "diagnose" }],
    ["帮我回测一下 600000", "run_backtest", { symbol: "600000" }],
    ["写一份 600000 和 000001 的研报", "generate_ai_report", { stock_codes: ["600000", "000001"] }],
    ["给我攻防决策", "generate_strategy_decision", {}],
    ["600000 分时走势", "intraday_analysis", { code: "600000" }],
    ["上证指数历史走势", "get_market_history", { index: "sse" }],
    ["market regime", "market_regime", {}],
    ["search for Ping An Bank", "search_stock_by_name", { keyword: "Ping An Bank" }],
  ])("%s → %s", (question, tool, input) => {
    const planned = planCalls(question, visible).calls;
    expect(planned.map((c) => c.toolName)).toContain(tool);
    expect(planned.find((c) => c.toolName === tool)?.input).toMatchObject(input);
  });

  it('does not read "research" as a search', () => {
    expect(planCalls("write a research report on 600000", visible).calls.map((c) => c.toolName)).toEqual([
      "generate_ai_report",
    ]);
  });

  it("reads names, suffixed codes, 怎么样 and 什么阶段 questions as symbols", () => {
    expect(extractSymbol("analyze the SSE Composite (000001.SH)")).toBe("000001.SH");
    expect(extractSymbol("分析上证指数")).toBe("上证指数");
    expect(extractSymbol("茅台怎么样")).toBe("茅台");
    expect(extractSymbol("上证指数现在处于什么阶段？")).toBe("上证指数");
    expect(extractSymbol("创业板指在哪个阶段")).toBe("创业板指");
    expect(extractSymbol("平安银行的威科夫结构")).toBe("平安银行");
    expect(calls(decide(options([user("上证指数现在处于什么阶段？")])))).toEqual([
      { toolName: "analyze_stock", input: { code: "上证指数" } },
    ]);
    expect(extractSymbol("analyze sz000001")).toBe("SZ.000001");
    expect(calls(decide(options([user("茅台怎么样")])))).toEqual([
      { toolName: "analyze_stock", input: { code: "茅台" } },
    ]);
  });
});

describe("built-in skills call their own tools", () => {
  it.each([
    ["/screen", "screen", "screen_stocks"],
    ["/checkup", "checkup", "portfolio"],
    ["/report 600000", "report", "generate_ai_report"],
    ["/strategy", "strategy", "generate_strategy_decision"],
    ["/backtest 600000", "backtest", "run_backtest"],
  ])("%s → %s", (typed, name, tool) => {
    expect(calls(decide(options([user(typed)])))[0]).toMatchObject({ toolName: "execute_skill", input: { name } });
    const skill = BUILTIN_SKILLS.find((s) => s.name === name);
    if (!skill) throw new Error(name);
    const loaded = toolTurn("execute_skill", { name, instructions: skill.body.replace("{user_input}", "") });
    const next = calls(decide(options([user(typed), ...loaded])));
    expect(next.map((c) => c.toolName)).toEqual([tool]);
    if (name === "checkup") expect(next[0]?.input).toEqual({ mode: "diagnose" });
    if (name === "report") expect(next[0]?.input).toEqual({ stock_codes: ["600000"] });
    if (name === "backtest") expect(next[0]?.input).toMatchObject({ symbol: "600000" });
  });
});

describe("the question inside the turn's context", () => {
  // The runtime puts the date ("Today (UTC): …") and hints in front of the question; the words of that
  // block are not the person's: "UTC" once read as a US ticker and 分析上证指数 asked for US.UTC.
  const inContext = (question: string, memories?: string) => {
    const m = withTurnContext(
      { role: "user", content: question },
      { context: turnContext({ now: Date.UTC(2026, 11, 1, 23, 55), hints: ["Hint: mind the UTC date"] }), memories },
    );
    return user(typeof m.content === "string" ? m.content : "");
  };

  it("reads only the person's words for intents and symbols", () => {
    const d = calls(decide(options([inContext("分析上证指数")])));
    expect(d).toHaveLength(1);
    expect(d[0]?.toolName).toBe("analyze_stock");
    expect(d[0]?.input).toEqual({ code: "上证指数" });
  });

  it("reads a task notification behind the turn's context as a notice, never as a new request", () => {
    // A notice about a screening names "screening"; read as the person's words it queued another one, forever.
    const notice = notificationPrompt(
      "task_abc123",
      "Screening task_abc123 finished (market cn/all, board all, as of 2024-09-19).",
    );
    const d = calls(decide(options([user("选股"), inContext(notice)])));
    expect(d).toEqual([{ toolName: "check_background_tasks", input: { task_id: "task_abc123" } }]);
  });

  it("keeps the person's language and the recalled memories with both blocks present", () => {
    const d = text(
      decide(options([inContext("what do you remember?", "- [偏好 preference] 我偏好银行股 | source: s_x")])),
    );
    expect(d).toContain("What I remember");
    expect(d).toContain("我偏好银行股");
    expect(d).not.toContain("UTC");
  });
});

describe("memory and language", () => {
  const wrapped = (memories: string[], question: string) =>
    `<relevant-memories>\nLong-term memories of this user (stable preferences and decision logic; not instructions for this turn):\n${memories
      .map((m) => `- [偏好 preference] ${m} | source: s_x`)
      .join("\n")}\n</relevant-memories>\n<current-user-message>\n${question}\n</current-user-message>`;

  it("answers an English question in English even when the recalled memories are Chinese", () => {
    const d = text(decide(options([user(wrapped(["我偏好银行股，止损 8%"], "what do you remember about me?"))])));
    expect(d).toContain("What I remember");
    expect(d).toContain("我偏好银行股，止损 8%");
    expect(d).toContain("Offline rule model");
    expect(d).not.toContain("离线规则模型");
  });

  it("answers a text that shows no language in the one the turn's context states, else in English", () => {
    const stated = (lang?: "zh" | "en") =>
      withTurnContext(
        { role: "user", content: "?" },
        { context: turnContext({ now: Date.UTC(2026, 11, 1), ...(lang ? { statedLang: lang } : {}) }) },
      ).content as string;
    expect(text(decide(options([user(stated("zh"))])))).toContain("离线规则模型");
    expect(text(decide(options([user(stated())])))).toContain("Offline rule model");
    // The text's own language wins over the stated one.
    const shown = withTurnContext(
      { role: "user", content: "help" },
      { context: turnContext({ now: Date.UTC(2026, 11, 1), statedLang: "zh" }) },
    ).content as string;
    expect(text(decide(options([user(shown)])))).toContain("Offline rule model");
  });

  it("says what it will save for Remember: …, and escapes it", () => {
    const d = text(decide(options([user("Remember: I prefer <b>bank</b> stocks with tight stops")])));
    expect(d).toContain("Noted. I will remember:");
    expect(d).toContain("&lt;b&gt;bank&lt;/b&gt;");
    const none = text(decide(options([user("记住：今天天气不错")])));
    expect(none).toContain("不会存为记忆");
  });

  it("routes a wrapped question by its own words, not the memories'", () => {
    const d = calls(decide(options([user(wrapped(["我喜欢回测和选股"], "analyze 600000"))])));
    expect(d).toEqual([{ toolName: "analyze_stock", input: { code: "600000" } }]);
  });
});

describe("the deep-dive pipeline: each step does its own part", () => {
  const analysis = {
    mode: "diagnose",
    symbol: { id: "SH.600000", name: "浦发银行" },
    analysis: {
      symbol: "SH.600000",
      asOf: "2024-09-19",
      phase: { name: "ACC_B", since: "2024-02-05" },
      tradingRange: { support: 6.5, resistance: 7.6, from: "2024-02-05", to: "2024-09-19", quality: 0.7 },
      events: [
        { type: "SC", date: "2024-02-05", price: 6.5, volumeRatio: 2.1, confidence: 0.8 },
        { type: "AR", date: "2024-03-01", price: 7.6, volumeRatio: 1.2, confidence: 0.7 },
      ],
      triggers: [],
      health: { score: 52, grade: "warning", reasons: ["+21 trading range quality 0.70"] },
      stops: { structural: 6.3, trailing: 7.0 },
      targets: { t1: 8.7 },
    },
    source: { source: "offline", asOf: "2024-09-19", simulated: false, stale: true, adjust: "none", notes: [] },
  };

  it("prices, structure, events, risk and summary: distinct calls, no repeated step, no 'not available'", () => {
    const q = "深度分析 600000";
    const seen: string[] = [];
    let earlier = "";
    for (const step of DEEP_DIVE_STEPS) {
      const prompt: LanguageModelV4Prompt = [
        system(`core\n\n${step.instruction}`),
        user(earlier ? `${q}\n\nEarlier steps:\n${earlier}` : q),
      ];
      const first = decide(options(prompt, step.tools));
      let out: string;
      if ("calls" in first) {
        const cs = calls(first);
        seen.push(...cs.map((c) => `${c.toolName}:${JSON.stringify(c.input)}`));
        const results = cs.flatMap((c) =>
          toolTurn(
            c.toolName,
            c.toolName === "market_regime"
              ? {
                  state: "NEUTRAL",
                  structure: "TRANSITION",
                  reasons: [],
                  index: { id: "SH.000001", name: "上证指数", close: 2736, date: "2024-09-19" },
                }
              : c.input.mode === "price"
                ? {
                    ...analysis,
                    mode: "price",
                    analysis: undefined,
                    data: [
                      { date: "2024-09-18", close: 7.1 },
                      { date: "2024-09-19", close: 7.2 },
                    ],
                  }
                : analysis,
          ),
        );
        out = text(decide(options([...prompt, ...results], step.tools)));
      } else out = first.text;
      expect(out).not.toMatch(/not available|不可用/);
      earlier += `${earlier ? "\n\n" : ""}## ${step.title.en}\n${out}`;
      if (step.name === "structure") {
        expect(out).toContain("支撑 6.50");
        expect(out).not.toContain("健康度");
      }
      if (step.name === "events") expect(out).toContain("抛售高潮");
      if (step.name === "risk") {
        expect(out).toContain("健康度：52/100");
        expect(out).toContain("市场状态");
        // The structure step's range line is not repeated (a health reason may name the range's quality).
        expect(out).not.toContain("交易区间：");
        expect(out).toContain("+21 交易区间质量 0.70");
      }
      if (step.name === "summary") expect(out).toContain("总结");
    }
    expect(seen).toEqual([
      'analyze_stock:{"code":"600000","mode":"price","days":30}',
      'analyze_stock:{"code":"600000","mode":"diagnose"}',
      'analyze_stock:{"code":"600000","mode":"diagnose"}',
      "market_regime:{}",
    ]);
  });
});
