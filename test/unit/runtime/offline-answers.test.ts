/**
 * The offline model's answers: what each tool result means in both languages (holdings, a screening's
 * layers, top sectors and candidates, a backtest's metrics and caveats, a task notification), escaped
 * quoted text, and a not_found said in the person's language.
 */
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { md } from "../../../worker/runtime/offline/answer-format";
import { composeAnswer } from "../../../worker/runtime/offline/answers";
import { ALL_PARTS, describeAnalysis } from "../../../worker/runtime/offline/describe-analysis";
import { decide } from "../../../worker/runtime/offline-model";
import { replyLanguageLine } from "../../../worker/runtime/prompts/system";
import { calls, options, text, toolTurn, user } from "./offline-model-prompts";
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

  it("says why a screening did not run (no stocks cached), with no empty funnel or date", () => {
    const note =
      "no cached US stocks on board all: screening reads cached bars only (MARKET_DATA=offline); the offline data has no US stocks (the whole-market screen offline is the simulated A-share market, market cn)";
    const tasks = {
      tasks: [
        {
          id: "task_9",
          kind: "screening",
          status: "succeeded",
          result: {
            ok: false,
            universe: "US",
            asOf: null,
            simulated: false,
            regime: { state: "NEUTRAL" },
            summary: {
              total_scanned: 0,
              layer1_passed: 0,
              layer2_passed: 0,
              layer3_passed: 0,
              layer4_passed: 0,
              layer5_passed: 0,
            },
            top_sectors: [],
            candidates: [],
            notes: [note],
          },
        },
      ],
      message: "1 task",
    };
    const en = text(decide(options([user("check background tasks"), ...toolTurn("check_background_tasks", tasks)])));
    expect(en).toContain("The screening did not run (US): no cached US stocks on board all");
    expect(en).toContain("the offline data has no US stocks");
    expect(en).not.toContain("as of");
    expect(en).not.toContain("0 scanned");
    const zh = text(decide(options([user("查看后台任务"), ...toolTurn("check_background_tasks", tasks)])));
    expect(zh).toContain("选股未运行（US）：没有缓存的 US 股票（板块 all）");
    expect(zh).toContain("离线数据不含美股");
    expect(zh).not.toContain("截至");
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
                triggers: [
                  { type: "lps", date: "2026-06-25", status: "confirmed" },
                  { type: "evr", date: "2026-06-29", status: "pending" },
                ],
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
    // The engine's words in the reader's language: trigger kinds and states, the verdict, the regime.
    expect(zh).toContain(
      "最后支撑点（LPS） 2026-06-25（已确认），量价背离（EVR） 2026-06-29（待确认）；结论：可入场，止损 11.2",
    );
    expect(zh).toContain("市场状态：中性");
    expect(zh).not.toMatch(/confirmed|pending|entry|NEUTRAL|\blps\b|\bevr\b/);
    expect(zh).toContain("SIM.0042");
    expect(zh).toContain("&lt;b&gt;星辰&lt;/b&gt;");
    expect(zh).toContain("模拟市场");
    const enScreening = text(
      decide(options([user("check background tasks"), ...toolTurn("check_background_tasks", screening)])),
    );
    expect(enScreening).toContain(
      "LPS 2026-06-25 (confirmed), effort vs result (EVR) 2026-06-29 (pending); verdict entry, stop 11.2",
    );
    expect(enScreening).toContain("regime neutral");
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

  it("reports a notification in the language its turn's context states, over the earlier text's", () => {
    const notice =
      '[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification id="n2">\nScreening task_def finished (market cn/SIM).\n</task-notification>\nReport this result to the user briefly.';
    const stated = `<turn-context>\nToday (UTC): 2026-01-05.\n\n${replyLanguageLine("zh")}\n</turn-context>\n<current-user-message>\n${notice}\n</current-user-message>`;
    const prompt: LanguageModelV4Prompt = [
      user("600000"),
      { role: "assistant", content: [{ type: "text", text: "…" }] },
      user(stated),
      ...toolTurn("check_background_tasks", { tasks: [], message: "" }),
    ];
    expect(text(decide(options(prompt)))).toContain("离线规则模型");
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

describe("the market regime in words", () => {
  it("says the state, the index structure and the regime's reasons in the reader's language", () => {
    const regime = {
      state: "RISK_OFF",
      structure: "BEAR",
      blocksNewEntries: true,
      reasons: ["index structure bear", "breadth 18% above MA20 (change -12pp)"],
      index: { id: "SH.000001", name: "上证指数", close: 2736.02, date: "2024-09-19" },
    };
    const result = { toolName: "market_regime", isError: false, output: regime };
    const zh = composeAnswer([result] as never, "zh");
    expect(zh).toContain("市场状态：**避险**（指数结构：空头，暂停新开仓）");
    expect(zh).toContain("指数结构空头；市场宽度：18% 的股票在 MA20 之上（变化 -12 个百分点）");
    expect(zh).not.toMatch(/BEAR|bear|breadth|structure/);
    const en = composeAnswer([result] as never, "en");
    expect(en).toContain("(index structure bear, new entries blocked)");
    expect(en).toContain("index structure bear; breadth 18% above MA20 (change -12pp)");
  });
});

describe("a Wyckoff reading in words", () => {
  const reading = {
    symbol: { id: "SH.000001", name: "上证指数" },
    analysis: {
      asOf: "2024-09-19",
      phase: { name: "ACC_D", since: "2024-02-21" },
      tradingRange: null,
      events: [
        { type: "SOS", variant: "exit", date: "2024-02-21", price: 2950.96, volumeRatio: 1.13, confidence: 0.5 },
      ],
      triggers: [
        { type: "spring", date: "2024-08-30", status: "expired" },
        { type: "spring", date: "2024-09-19", status: "pending" },
      ],
      health: { score: 9, grade: "danger", reasons: [] },
      stops: { structural: 2450.63, trailing: null, atr: 2676.47, reasons: ["below the range"] },
      targets: { pointAndFigure: null, measuredMove: 3300 },
    },
  };

  it("names variants, triggers, their states, stops and targets in Chinese, with no English enum word", () => {
    const zh = describeAnalysis(reading, "zh", ALL_PARTS).join("\n");
    expect(zh).toContain("当前阶段：吸筹 D 阶段（ACC_D，自 2024-02-21）");
    expect(zh).toContain("- SOS（离开区间） 2024-02-21 @ 2950.96");
    expect(zh).toContain("触发信号：弹簧（Spring） 2024-08-30（已失效）；弹簧（Spring） 2024-09-19（待确认）");
    expect(zh).toContain("止损位：结构止损 2450.63，ATR 止损 2676.47。");
    expect(zh).toContain("目标位：等幅测算 3300。");
    expect(zh).not.toMatch(/exit|expired|pending|structural|\batr\b|measuredMove/);
  });

  it("keeps the engine's words readable in English", () => {
    const en = describeAnalysis(reading, "en", ALL_PARTS).join("\n");
    expect(en).toContain("phase: accumulation phase D (ACC_D, since 2024-02-21)");
    expect(en).toContain("- SOS exit 2024-02-21 @ 2950.96");
    expect(en).toContain("Triggers: Spring 2024-08-30 (expired); Spring 2024-09-19 (pending)");
    expect(en).toContain("Stops: structural 2450.63, ATR 2676.47.");
    expect(en).toContain("Targets: measured move 3300.");
  });

  it("marks a stop the last close is already at or under as hit", () => {
    const broken = {
      ...reading,
      analysis: {
        ...reading.analysis,
        indicators: { close: 2874.56 },
        stops: { structural: 2038.43, trailing: 3054.17, atr: 2800, reasons: [] },
      },
    };
    const en = describeAnalysis(broken, "en", ALL_PARTS).join("\n");
    expect(en).toContain("Stops: structural 2038.43, trailing 3054.17 (at or above the close: hit), ATR 2800.");
    const zh = describeAnalysis(broken, "zh", ALL_PARTS).join("\n");
    expect(zh).toContain("跟踪止损 3054.17（不低于收盘价：已触发）");
    expect(zh).not.toContain("结构止损 2038.43（");
  });

  it("ends the event list before the next line and names the data source in the reader's language", () => {
    const result = {
      toolName: "analyze_stock",
      isError: false,
      output: { ...reading, source: { source: "offline", asOf: "2024-09-19", simulated: false, stale: false } },
    };
    const zh = composeAnswer([result] as never, "zh");
    // a line right under a list item would be read by markdown as that item running on
    expect(zh).toMatch(/- SOS（离开区间） 2024-02-21 @ 2950\.96[^\n]*\n\n触发信号：/);
    expect(zh).toContain("数据来源：离线数据包（截至 2024-09-19）；真实历史行情，非实时");
    expect(zh).not.toMatch(/offline/);
    const en = composeAnswer([result] as never, "en");
    expect(en).toMatch(/- SOS exit 2024-02-21 @ 2950\.96[^\n]*\n\nTriggers: /);
    expect(en).toContain("Source: offline bundle (as of 2024-09-19); real historical bars, not live");
  });
});
