/** OMS decisions, report camps, dead-letter reading and the offline model's notification answer. */
import { describe, expect, it } from "vitest";
import { readDeadLetter } from "../../../worker/background/read-dead-letter";
import { campOf, type ReportFeatures } from "../../../worker/engine/report/report-features";
import { RULE_REPORT_LABEL, ruleReport } from "../../../worker/engine/report/rule-report";
import { decideOrders, type HeldReading } from "../../../worker/engine/strategy/oms";
import { decide } from "../../../worker/runtime/offline-model";

const held = (over: Partial<HeldReading> = {}): HeldReading => ({
  code: "SIM.0001",
  name: "A",
  shares: 1000,
  cost: 10,
  close: 11,
  phase: "MARKUP",
  healthGrade: "healthy",
  structuralStop: 9,
  trailingStop: null,
  ...over,
});

describe("decideOrders", () => {
  it("only ever tightens a user's stop", () => {
    const loose = decideOrders({ holdings: [held({ userStop: 8 })], candidates: [], regime: "NEUTRAL", cash: 0 });
    expect(loose.decisions[0]?.stop).toBe(9.3); // −7% hard stop from cost beats the user's 8
    const tight = decideOrders({ holdings: [held({ userStop: 10.5 })], candidates: [], regime: "NEUTRAL", cash: 0 });
    expect(tight.decisions[0]?.stop).toBe(10.5);
  });

  it("exits first, then holds, then buys in 100-share lots sized by risk", () => {
    const r = decideOrders({
      holdings: [held(), held({ code: "SIM.0002", close: 9 })],
      candidates: [{ code: "SIM.0009", name: "C", close: 20, stop: 18.6, priority: 150 }],
      regime: "NEUTRAL",
      cash: 100_000,
    });
    expect(r.decisions.map((d) => d.action)).toEqual(["EXIT", "HOLD", "ATTACK"]);
    const buy = r.decisions[2];
    expect((buy?.shares ?? 1) % 100).toBe(0);
    expect(buy?.price).toBeCloseTo(20.1, 6);
  });

  it("freezes buys in CRASH and RISK_OFF", () => {
    for (const regime of ["CRASH", "RISK_OFF"] as const) {
      const r = decideOrders({
        holdings: [],
        candidates: [{ code: "X", name: "X", close: 10, stop: 9, priority: 150 }],
        regime,
        cash: 1e6,
      });
      expect(r.buysFrozen).toBe(true);
      expect(r.decisions).toEqual([]);
    }
  });
});

const features = (over: Partial<ReportFeatures> = {}): ReportFeatures => ({
  code: "SIM.0001",
  name: "A",
  asOf: "2026-06-30",
  close: 10,
  phase: "ACC_C",
  ma: { ma20: 9.8, ma50: 9.5, ma200: 9, bias200Pct: 11 },
  slice15: [],
  events60: [],
  triggers: [],
  health: { score: 70, grade: "healthy", reasons: [] },
  stops: { structural: 8, trailing: null },
  tradingRange: null,
  ...over,
});

describe("report camps", () => {
  it("places stocks by the engine's evidence", () => {
    expect(campOf(features({ health: { score: 20, grade: "danger", reasons: ["x"] } })).camp).toBe("逻辑破产");
    expect(campOf(features({ triggers: [{ type: "spring", date: "2026-06-29", status: "confirmed" }] })).camp).toBe(
      "起跳板",
    );
    expect(campOf(features()).camp).toBe("储备营地");
    expect(campOf(features({ close: 7.5 })).camp).toBe("逻辑破产");
  });

  it("labels the rule-based report and quotes only supplied closes", () => {
    const r = ruleReport([features({ close: 12.34 })], true);
    expect(r.text).toContain(RULE_REPORT_LABEL);
    expect(r.text).toContain("12.34");
    expect(r.text).toMatch(/simulated/);
  });
});

describe("dead letters", () => {
  it("reads our consumer's envelope and a raw message moved after max_retries", () => {
    expect(
      readDeadLetter({
        reason: "permanent failure: bad",
        queue: "q",
        body: { kind: "task.run", taskId: "task_1" },
        attempts: 1,
      }),
    ).toEqual({
      taskId: "task_1",
      reason: "permanent failure: bad",
    });
    expect(readDeadLetter({ kind: "screen.batch", taskId: "task_2", batch: 0 })).toEqual({
      taskId: "task_2",
      reason: "gave up after repeated failures of screen.batch (retries exhausted)",
    });
    expect(readDeadLetter("garbage").taskId).toBeNull();
  });
});

describe("offline model and notifications", () => {
  it("relays a task notification without calling tools named in it", () => {
    const text =
      '[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification id="task_1">\nScreening task_1 finished: screen backtest\n</task-notification>\nReport this result to the user briefly.';
    const out = decide({
      prompt: [{ role: "user", content: [{ type: "text", text }] }],
      tools: [{ type: "function", name: "screen_stocks", inputSchema: { type: "object", properties: {} } }],
    } as never);
    expect("text" in out && out.text).toContain("Screening task_1 finished");
  });
});
