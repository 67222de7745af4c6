/**
 * Server-written text in Chinese (issue 22, problem 6): task notifications built by the real
 * run-summaries functions, backtest caveats read from the engine's own source, trade notes and change
 * summaries from the real portfolio planner, stages, exit and verdict reasons, tool errors — each
 * comes out in Chinese with its figures kept, and unchanged in English.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BacktestResult } from "../../../worker/contracts/backtest";
import { coverageStatement } from "../../../worker/contracts/market-sync";
import type { Portfolio } from "../../../worker/contracts/portfolio";
import type { ReportResult, StrategyResult } from "../../../worker/contracts/report";
import type { ScreeningResult } from "../../../worker/contracts/screening";
import {
  asClockReading,
  caveatText,
  clockText,
  changeSummaryText,
  exitReasonText,
  noticeText,
  taskFailureText,
  toolErrorText,
  tradeNoteText,
  verdictReasonText,
} from "../../../worker/contracts/server-text";
import {
  backtestNotification,
  reportNotification,
  screeningNotification,
  strategyNotification,
} from "../../../worker/background/run-summaries";
import { planChange } from "../../../worker/tools/handlers/portfolio-plan";

/** Two English words in a row, once identifiers (task ids, tool names, codes, regimes) are taken out. */
function englishLeft(text: string): string[] {
  const cleaned = text
    .replace(/\btask_[a-z0-9]+\b/g, "")
    .replace(/\bcheck_background_tasks\b/g, "")
    .replace(/\b[A-Z][A-Z0-9_.]+\b/g, "");
  return [...cleaned.matchAll(/\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\b/g)].map((m) => m[0]);
}

const screening = {
  market: "cn",
  universe: "SIM",
  board: "all",
  asOf: "2026-06-30",
  simulated: true,
  regime: { state: "CAUTION", reasons: [], breadthAboveMa20Pct: 40 },
  summary: {
    total_scanned: 300,
    layer1_passed: 299,
    layer2_passed: 135,
    layer3_passed: 63,
    layer4_passed: 32,
    layer5_passed: 26,
  },
  candidates: [
    {
      code: "SIM.0160",
      name: "永泰医药",
      triggers: [{ type: "evr", status: "confirmed" }],
      verdict: "entry",
    },
  ],
  symbols_for_report: ["SIM.0160"],
} as unknown as ScreeningResult;

const day = readFileSync(path.resolve(import.meta.dirname, "../../../worker/engine/backtest/day-replay.ts"), "utf8");
const caveats = [...day.slice(day.indexOf("const caveats = ["), day.indexOf("const lastExit")).matchAll(/"([^"]+)"/g)]
  .map((m) => m[1] ?? "")
  .concat(["not enough history: signals need 200 bars of MA200 warm-up"]);

const backtest = {
  period: "2025-12-17~2026-06-30",
  universe: "SIM",
  hold_days: 15,
  top_n: 2,
  exit_mode: "sltp",
  stop_loss_pct: -8,
  take_profit_pct: 18,
  trades: 6,
  win_rate_pct: 66.67,
  avg_ret_pct: 3.28,
  median_ret_pct: 3.84,
  sharpe_ratio: 1.52,
  max_drawdown_pct: -0.12,
  calmar_ratio: 3.93,
  cvar95_pct: -8.92,
  portfolio_total_ret_pct: 0.26,
  caveats: [...caveats, `Coverage: ${coverageStatement(5102, 5317, "2026-11-30")} (market sync).`],
} as unknown as BacktestResult;

describe("server text in the UI language", () => {
  it("finds the engine's caveats", () => {
    expect(caveats.length).toBeGreaterThanOrEqual(4);
  });

  it.each(caveats)("translates the caveat %s", (c) => {
    const zh = caveatText(c, "zh");
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(englishLeft(zh)).toEqual([]);
    expect(caveatText(c, "en")).toBe(c);
  });

  it("translates each task notification line by line, figures kept", () => {
    const texts = [
      screeningNotification("task_abc1", screening),
      screeningNotification("task_abc2", { ...screening, candidates: [], symbols_for_report: [] }),
      backtestNotification("task_abc3", backtest),
      reportNotification("task_abc4", {
        stock_count: 2,
        rule_based: true,
        camps: [{ code: "SH.600000", camp: "LEADER" }],
        missing: ["SZ.000002"],
      } as unknown as ReportResult),
      strategyNotification("task_abc5", {
        regime: "NORMAL",
        buys_frozen: true,
        rule_based: true,
        decisions: [{ action: "BUY", code: "SH.600000", shares: 100 }],
      } as unknown as StrategyResult),
      strategyNotification("task_abc6", {
        regime: "NORMAL",
        buys_frozen: false,
        rule_based: false,
        decisions: [],
      } as unknown as StrategyResult),
      "Background task task_abc7 (screen_stocks) failed: 上游超时",
    ];
    for (const text of texts) {
      const zh = noticeText(text, "zh");
      expect(englishLeft(zh), zh).toEqual([]);
      expect(noticeText(text, "en")).toBe(text);
    }
    const zh = noticeText(texts[0] ?? "", "zh");
    expect(zh).toContain("扫描 300 → L1 299 → L2 135 → L3 63 → L4 32 → L5 26");
    expect(zh).toContain("SIM.0160 永泰医药");
    expect(noticeText(texts[2] ?? "", "zh")).toContain("6 笔交易，胜率 66.67%");
    expect(noticeText(texts[2] ?? "", "zh")).toContain("覆盖率：5,317 只股票中 5,102 只的日线截至 2026-11-30");
    expect(noticeText("something new\nFunnel: nonsense", "zh")).toBe("something new\nFunnel: nonsense");
  });

  it("translates the planner's trade notes and change summaries, keeping the person's note", () => {
    const now = "2026-12-01T00:00:00.000Z";
    const cash: Portfolio = { freeCash: 5000, positionCount: 0, positions: [], updatedAt: null };
    const resolved = { code: "SIM.0011", name: "华信科技" };
    const plans = [
      planChange(cash, { action: "add", code: "SIM.0011", shares: 100, cost: 10, stop: 9, resolved }, now),
      planChange(cash, { action: "add", code: "SIM.0011", shares: 1000, cost: 10, resolved }, now),
      planChange(cash, { action: "add", code: "SIM.0011", shares: 100, cost: 10, cash: "record", resolved }, now),
      planChange(cash, { action: "set_cash", freeCash: 20_000 }, now),
    ];
    const held = plans[0]?.ok ? plans[0].value.after : cash;
    plans.push(planChange(held, { action: "remove", code: "SIM.0011", price: 12, resolved }, now));
    plans.push(planChange(held, { action: "update", code: "SIM.0011", stop: 9.5, resolved }, now));
    for (const plan of plans) {
      expect(plan.ok).toBe(true);
      if (!plan.ok) continue;
      const summary = changeSummaryText(plan.value.summary, "zh");
      expect(englishLeft(summary), summary).toEqual([]);
      expect(summary).toMatch(/[\u4e00-\u9fff]/);
      for (const trade of plan.value.write.trades)
        if (trade.note) expect(englishLeft(tradeNoteText(trade.note, "zh")), trade.note).toEqual([]);
    }
    expect(tradeNoteText("took profits · sold at 12, cash +1200", "zh")).toBe("took profits · 以 12 卖出，资金 +1200");
    expect(tradeNoteText("my own words", "zh")).toBe("my own words");
    expect(changeSummaryText("opened SIM.0011 华信科技 100 @ 10, stop 9; cash −1000", "en")).toContain("opened");
  });

  it("names exit reasons, verdict reasons and tool errors in Chinese", () => {
    for (const r of ["stop loss", "trailing stop", "take profit", "holding period ended", "window end"])
      expect(exitReasonText(r, "zh")).toMatch(/^[\u4e00-\u9fff]+$/);
    for (const r of [
      "awaiting next-day confirmation",
      "entries blocked in regime RISK_OFF",
      "closed under the structural stop",
      "trigger confirmed, regime allows entries",
    ])
      expect(englishLeft(verdictReasonText(r, "zh"))).toEqual([]);
    const messages = { zh: "离线模式下没有 US.AAPL 的数据。", en: "No offline data for US.AAPL." };
    expect(toolErrorText("not_found: No offline data for US.AAPL.", "zh", messages)).toBe(
      "未找到：离线模式下没有 US.AAPL 的数据。",
    );
    expect(toolErrorText("not_found: 离线模式下没有 US.AAPL 的数据。", "en", messages)).toBe(
      "not_found: No offline data for US.AAPL.",
    );
    expect(toolErrorText("invalid_input: code: bad", "zh")).toBe("输入无效：code: bad");
    expect(toolErrorText("weird", "zh")).toBe("weird");
  });
});

describe("market clock in words", () => {
  it("says the real get_time answer in Chinese and English", async () => {
    const { getTimeHandler } = await import("../../../worker/tools/handlers/get-time");
    // 2026-12-02 03:40 UTC = 11:40 in Shanghai, a Wednesday: the lunch break
    const out = await getTimeHandler(
      { market: "cn" },
      { clock: () => Date.parse("2026-12-02T03:40:00Z") } as never,
      {} as never,
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const reading = asClockReading(out.value);
    expect(reading).not.toBeNull();
    if (!reading) return;
    const zh = clockText(reading, "zh");
    expect(zh.line).toBe("上海时间 2026-12-02 星期三 11:40:00，午间休市");
    expect(zh.open).toBe("现在不在交易时段");
    expect(englishLeft(`${zh.line}${zh.open}${zh.note}`)).toEqual([]);
    expect(clockText(reading, "en").line).toBe("Shanghai time 2026-12-02 Wednesday 11:40:00, lunch break");
  });
});

describe("task failures in words", () => {
  /** A failure as the real chain writes it: the queue consumer dead-letters, the DLQ consumer fails the task. */
  async function failThrough(thrown: Error | null, kind = "run_backtest") {
    const { createQueueConsumer } = await import("../../../worker/background/queue-consumer");
    const { readDeadLetter } = await import("../../../worker/background/read-dead-letter");
    const { failTask } = await import("../../../worker/background/complete-task");
    const { createLogger } = await import("../../../worker/lib/log");
    const log = createLogger(() => {});
    const body = { kind: "task.run", taskId: "task_f1" };
    let letter: unknown = body; // a message the queue moved after max_retries is the raw body
    if (thrown) {
      const consume = createQueueConsumer({
        "task.run": async () => {
          throw thrown;
        },
      });
      const message = { id: "m1", attempts: 1, body, ack() {}, retry() {} };
      await consume({ queue: "tasks", messages: [message] }, { send: async (l) => (letter = l) }, log);
    }
    const { taskId, reason } = readDeadLetter(letter);
    let error = "";
    let notice = "";
    const view = () => ({ id: "task_f1", kind, status: "failed", error });
    await failTask(
      {
        tasks: {
          transition: async (_id: string, _from: unknown, patch: { error?: string }) => {
            error = patch.error ?? "";
            return true;
          },
          record: async () => ({ view: view(), sessionId: "s1", ownerId: "u1" }),
        },
        sessions: { taskFinished: async (_s: string, n: { text: string }) => void (notice = n.text) },
        now: () => 0,
        log,
      } as never,
      taskId ?? "",
      reason,
    );
    return { error, notice };
  }

  it("says each failure the jobs write in Chinese, in the tasks panel and the notice", async () => {
    const { PermanentError } = await import("../../../worker/background/queue-consumer");
    const { NEVER_SYNCED, US_NEVER_SYNCED } = await import("../../../worker/background/market-sync/sync-gate");
    const cases = [
      new PermanentError(NEVER_SYNCED),
      new PermanentError(US_NEVER_SYNCED),
      new PermanentError("unknown task kind mystery"),
      new PermanentError("task task_f1 is not a backtest"),
      new PermanentError("malformed backtest.batch message"),
      null,
    ];
    for (const thrown of cases) {
      const { error, notice } = await failThrough(thrown);
      expect(error).not.toBe("");
      const zh = taskFailureText(error, "zh");
      expect(englishLeft(zh), zh).toEqual([]);
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      expect(taskFailureText(error, "en")).toBe(error);
      const zhNotice = noticeText(notice, "zh");
      expect(zhNotice).toContain(`后台任务 task_f1（run_backtest）失败：${zh}`);
      expect(englishLeft(zhNotice), zhNotice).toEqual([]);
    }
    expect(taskFailureText("something nobody templated", "zh")).toBe("something nobody templated");
  });
});
