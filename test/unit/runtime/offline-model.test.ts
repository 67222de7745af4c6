/**
 * The offline rule model's decisions and answers: it routes intents and the built-in skills to their
 * tools, answers from what results mean (holdings with P&L and stops, screening layers and candidates,
 * backtest metrics and caveats, memory), keeps the person's language whatever the memories say,
 * escapes what it quotes, and gives each deep-dive pipeline step its own part.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { composeAnswer, md } from "../../../worker/runtime/offline/answers";
import { extractSymbol, planCalls } from "../../../worker/runtime/offline/intents";
import { decide } from "../../../worker/runtime/offline-model";
import { BUILTIN_SKILLS } from "../../../worker/runtime/skills/builtin";
import { turnContext } from "../../../worker/runtime/prompts/system";
import { withTurnContext } from "../../../worker/runtime/transcript";
import { notificationPrompt } from "../../../worker/runtime/turn-controller";
import { DEEP_DIVE_STEPS } from "./deep-dive-steps";

const TOOL_NAMES = [
  "analyze_stock",
  "portfolio",
  "screen_stocks",
  "run_backtest",
  "generate_ai_report",
  "generate_strategy_decision",
  "intraday_analysis",
  "get_market_history",
  "get_market_overview",
  "market_regime",
  "search_stock_by_name",
  "check_background_tasks",
  "get_time",
  "execute_skill",
  "update_portfolio",
];
const PROPS: Record<string, Record<string, unknown>> = {
  analyze_stock: { code: {}, mode: {}, cost: {}, days: {} },
  portfolio: { mode: {} },
  screen_stocks: { market: {}, board: {}, limit: {} },
  run_backtest: { market: {}, symbol: {}, hold_days: {} },
  generate_ai_report: { stock_codes: {} },
  generate_strategy_decision: { market: {} },
  intraday_analysis: { code: {}, interval: {} },
  get_market_history: { index: {}, days: {} },
  get_market_overview: { market: {} },
  market_regime: { market: {} },
  search_stock_by_name: { keyword: {} },
  check_background_tasks: { task_id: {}, status: {} },
  get_time: { market: {} },
  execute_skill: { name: {}, user_input: {} },
  update_portfolio: { actions: {} },
};
const tools = TOOL_NAMES.map((name) => ({
  type: "function" as const,
  name,
  inputSchema: { type: "object" as const, properties: PROPS[name] ?? {} },
}));

function options(prompt: LanguageModelV4Prompt, names: readonly string[] = TOOL_NAMES): LanguageModelV4CallOptions {
  return { prompt, tools: tools.filter((t) => names.includes(t.name)) } as LanguageModelV4CallOptions;
}
const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });
const system = (content: string) => ({ role: "system" as const, content });
function toolTurn(toolName: string, output: unknown, isError = false): LanguageModelV4Prompt {
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c_${toolName}`, toolName, input: {} }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `c_${toolName}`,
          toolName,
          output: isError ? { type: "error-text", value: String(output) } : { type: "json", value: output as never },
        },
      ],
    },
  ] as LanguageModelV4Prompt;
}
function calls(d: ReturnType<typeof decide>) {
  if (!("calls" in d)) throw new Error(`expected calls, got text: ${d.text.slice(0, 200)}`);
  return d.calls.map((c) => ({ toolName: c.toolName, input: JSON.parse(c.input) as Record<string, unknown> }));
}
function text(d: ReturnType<typeof decide>): string {
  if (!("text" in d)) throw new Error(`expected text, got calls ${JSON.stringify(d.calls)}`);
  return d.text;
}
const visible = tools.map((t) => ({ name: t.name, properties: t.inputSchema.properties }));

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

  it("reads names, suffixed codes and 怎么样 questions as symbols", () => {
    expect(extractSymbol("analyze the SSE Composite (000001.SH)")).toBe("000001.SH");
    expect(extractSymbol("分析上证指数")).toBe("上证指数");
    expect(extractSymbol("茅台怎么样")).toBe("茅台");
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

const HOLDINGS = {
  mode: "diagnose",
  freeCash: 5000,
  positionCount: 1,
  positions: [{ code: "SH.600000", name: "浦发银行", shares: 1000, cost: 7.5, buyDate: null, stop: 7, updatedAt: "" }],
  diagnostics: [
    {
      code: "SH.600000",
      name: "浦发银行",
      shares: 1000,
      cost: 7.5,
      ok: true,
      latestClose: 10.01,
      latestDate: "2024-09-19",
      marketValue: 10010,
      pnlPct: 33.46,
      grade: "healthy",
      healthScore: 45,
      healthGrade: "warning",
      phase: "ACC_B",
      stop: 7,
      stopStatus: "ok",
      danger: [],
      warnings: [],
      positives: ["phase ACC_D"],
      stale: true,
    },
  ],
};

describe("offline answers say what results mean", () => {
  it("gives each holding its price, value, P&L, stop and health in both languages", () => {
    const zh = text(decide(options([user("查看持仓"), ...toolTurn("portfolio", HOLDINGS)])));
    expect(zh).toContain("浦发银行");
    expect(zh).toContain("盈亏 +33.46%");
    expect(zh).toContain("止损 7（安全）");
    expect(zh).toContain("市值 10010");
    expect(zh).toContain("健康度 45/100（警告）");
    expect(zh).not.toMatch(/positions：1 项/);
    const en = text(decide(options([user("show my holdings"), ...toolTurn("portfolio", HOLDINGS)])));
    expect(en).toContain("P&L +33.46%");
    expect(en).toContain("stop 7 (clear)");
    expect(en).toContain("health 45/100 (warning)");
  });

  it("reads a finished screening's layers and top candidates, and a backtest's metrics with caveats", () => {
    const screening = {
      tasks: [
        {
          id: "task_1",
          kind: "screening",
          status: "succeeded",
          result: {
            universe: "SIM",
            asOf: "2026-06-30",
            simulated: true,
            regime: { state: "NEUTRAL" },
            summary: {
              total_scanned: 300,
              layer1_passed: 240,
              layer2_passed: 90,
              layer3_passed: 40,
              layer4_passed: 6,
              layer5_passed: 2,
            },
            top_sectors: [
              { sector: "银行", count: 5, strength: 1 },
              { sector: "煤炭", count: 3, strength: 0.8137 },
            ],
            candidates: [
              {
                code: "SIM.0042",
                name: "<b>星辰</b>",
                close: 12.3,
                triggers: [{ type: "SPRING", date: "2026-06-25", status: "confirmed" }],
                verdict: "entry",
                stop: 11.2,
              },
            ],
          },
        },
      ],
      message: "1 task",
    };
    const zh = text(decide(options([user("查看后台任务"), ...toolTurn("check_background_tasks", screening)])));
    expect(zh).toContain("扫描 300 → L1 流动性 240 → L2 通道 90 → L3 板块 40 → L4 触发 6 → L5 确认 2");
    // The sectors in the order given (by strength), each with the strength it is ranked by.
    expect(zh).toContain("强势板块（按强度排序）：银行（5 只，强度 1.00），煤炭（3 只，强度 0.81）");
    expect(zh).toContain("SIM.0042");
    expect(zh).toContain("&lt;b&gt;星辰&lt;/b&gt;");
    expect(zh).toContain("模拟市场");
    const enScreening = text(
      decide(options([user("check background tasks"), ...toolTurn("check_background_tasks", screening)])),
    );
    expect(enScreening).toContain(
      "Top sectors (by strength): 银行 (5 stocks, strength 1.00), 煤炭 (3 stocks, strength 0.81)",
    );
    const backtest = {
      tasks: [
        {
          id: "task_2",
          kind: "backtest",
          status: "succeeded",
          result: {
            period: "2025-07-01..2026-06-30",
            universe: "SIM",
            hold_days: 15,
            top_n: 2,
            exit_mode: "sltp",
            trades: 40,
            win_rate_pct: 52.5,
            avg_ret_pct: 1.2,
            median_ret_pct: 0.8,
            sharpe_ratio: 1.1,
            max_drawdown_pct: -12.5,
            calmar_ratio: 0.9,
            cvar95_pct: -7.7,
            portfolio_total_ret_pct: 11.1,
            caveats: ["Survivorship: the universe is today's list."],
          },
        },
      ],
      message: "1 task",
    };
    const en = text(decide(options([user("check background tasks"), ...toolTurn("check_background_tasks", backtest)])));
    expect(en).toContain("40 trades, win rate 52.50%");
    expect(en).toContain("Sharpe 1.10");
    expect(en).toContain("max drawdown -12.50%");
    expect(en).toContain("Caveats: Survivorship");
    expect(en).toContain("stop-loss/take-profit");
    // In Chinese the kind and the exit mode are words, not the tool's name or the engine's code.
    const withKind = { ...backtest, tasks: backtest.tasks.map((t) => ({ ...t, kind: "run_backtest" })) };
    const zhBacktest = text(decide(options([user("查看后台任务"), ...toolTurn("check_background_tasks", withKind)])));
    expect(zhBacktest).toContain("- 策略回测 `");
    expect(zhBacktest).toContain("止损止盈");
    expect(zhBacktest).not.toMatch(/run_backtest|sltp/);
  });

  it("reads a finished task's notification through check_background_tasks, in the conversation's language", () => {
    const notice =
      '[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification id="n1">\nScreening task_abc finished (market cn/SIM).\n</task-notification>\nReport this result to the user briefly.';
    const prompt: LanguageModelV4Prompt = [
      user("帮我选股"),
      { role: "assistant", content: [{ type: "text", text: "…" }] },
      user(notice),
    ];
    expect(calls(decide(options(prompt)))).toEqual([
      { toolName: "check_background_tasks", input: { task_id: "task_abc" } },
    ]);
    const answered = text(
      decide(options([...prompt, ...toolTurn("check_background_tasks", { tasks: [], message: "" })])),
    );
    expect(answered).toContain("离线规则模型");
  });

  it("escapes quoted text so raw HTML cannot break the message", () => {
    const out = composeAnswer(
      [{ toolName: "get_time", output: { note: "use <code> here *now*" }, isError: false }],
      "en",
    );
    expect(out).toContain("use &lt;code&gt; here \\*now\\*");
    expect(out).not.toContain("<code>");
    expect(md("ACC_B [x](y) | `z`")).toBe("ACC_B \\[x\\](y) \\| \\`z\\`");
  });

  it("answers a not_found in the person's language and never lists internal tool names for help", () => {
    const help = text(decide(options([user("hello there")])));
    expect(help).not.toContain("check_background_tasks");
    expect(help).toContain("analyze 600000");
    const zhHelp = text(decide(options([user("你好")])));
    expect(zhHelp).toContain("分析上证指数");
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
