/** generate_strategy_decision without holdings decides about the user's saved portfolio. */
import { describe, expect, it } from "vitest";
import type { Portfolio } from "../../../worker/contracts/portfolio";
import { StrategyInput } from "../../../worker/contracts/report";
import { ok } from "../../../worker/lib/result";
import type { ToolContext, ToolDeps } from "../../../worker/tools/deps";
import { generateStrategyDecisionHandler, holdingsOf } from "../../../worker/tools/handlers/generate-strategy-decision";

const saved: Portfolio = {
  freeCash: 50_000,
  positionCount: 2,
  positions: [
    {
      code: "SIM.0001",
      name: "信盛化学",
      shares: 300,
      cost: 24.5,
      buyDate: "2026-05-01",
      stop: 22.9,
      updatedAt: "2026-06-01T00:00:00Z",
    },
    {
      code: "SIM.0002",
      name: "零股",
      shares: 0,
      cost: 10,
      buyDate: null,
      stop: null,
      updatedAt: "2026-06-01T00:00:00Z",
    },
  ],
  updatedAt: "2026-06-01T00:00:00Z",
};

function depsWith(submitted: unknown[]): ToolDeps {
  return {
    portfolio: { read: async () => saved, trades: async () => [], commit: async () => ({ deletedTrades: 0 }) },
    background: {
      submit: async (job: { input: unknown }) => {
        submitted.push(job.input);
        return ok({ task: { id: "task_1", status: "queued" } });
      },
    },
  } as unknown as ToolDeps;
}

const ctx = { sessionId: "s", userId: "u", toolCallId: "c", signal: new AbortController().signal } as ToolContext;

describe("generate_strategy_decision", () => {
  it("uses the saved portfolio's positions, stops and cash when the call names none", async () => {
    const submitted: unknown[] = [];
    const answer = await generateStrategyDecisionHandler(StrategyInput.parse({}), depsWith(submitted), ctx);
    expect(answer.ok).toBe(true);
    expect(submitted[0]).toMatchObject({
      free_cash: 50_000,
      holdings: [{ code: "SIM.0001", shares: 300, cost_price: 24.5, stop_loss: 22.9 }],
    });
    expect(holdingsOf(saved)).toHaveLength(1); // a zero-share row is not a holding
  });

  it("keeps holdings the caller gives", async () => {
    const submitted: unknown[] = [];
    const input = StrategyInput.parse({
      holdings: [{ code: "SIM.0003", shares: 100, cost_price: 5 }],
      free_cash: 1000,
    });
    await generateStrategyDecisionHandler(input, depsWith(submitted), ctx);
    expect(submitted[0]).toMatchObject({ free_cash: 1000, holdings: [{ code: "SIM.0003" }] });
  });
});
