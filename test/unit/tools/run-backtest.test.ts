/**
 * `run_backtest` with a named symbol: the symbol is resolved and checked against the universe the
 * backtest replays before a task is queued (offline: the simulated market), so a real or unknown
 * symbol is a tool error naming the field, in both languages, and nothing is submitted.
 */
import { describe, expect, it } from "vitest";
import type { SymbolInfo } from "../../../worker/contracts/market";
import { err, ok } from "../../../worker/lib/result";
import type { ToolContext, ToolDeps } from "../../../worker/tools/deps";
import { runBacktestHandler } from "../../../worker/tools/handlers/run-backtest";
import { runBacktestSpec } from "../../../worker/tools/specs/run-backtest";

const ctx: ToolContext = { sessionId: "s", userId: "u", toolCallId: "c", signal: new AbortController().signal };
const sym = (id: string, market: SymbolInfo["market"]): SymbolInfo => ({
  id,
  market,
  exchange: id.split(".")[0] as SymbolInfo["exchange"],
  code: id.split(".")[1] ?? id,
  name: id,
  pinyin: "",
  kind: "stock",
  board: null,
  industry: null,
  status: "listed",
  currency: "CNY",
  simulated: market === "SIM",
});

function deps() {
  const submitted: unknown[] = [];
  const known = new Map([
    ["SIM.0002", sym("SIM.0002", "SIM")],
    ["600000", sym("SH.600000", "CN")],
  ]);
  const d = {
    market: {
      mode: "offline",
      resolve: async (input: string) => {
        const s = known.get(input);
        return s ? ok({ symbol: s, alternatives: [] }) : err("not_found", `no ${input}`);
      },
    },
    background: {
      submit: async (job: { input: unknown }) => {
        submitted.push(job.input);
        return ok({ task: { id: "task_1", status: "queued" } });
      },
    },
  } as unknown as ToolDeps;
  return { d, submitted };
}

describe("run_backtest with a symbol", () => {
  it("passes the resolved symbol id to the job", async () => {
    const { d, submitted } = deps();
    const r = await runBacktestHandler(runBacktestSpec.input.parse({ symbol: "SIM.0002" }), d, ctx);
    expect(r.ok).toBe(true);
    expect(submitted[0]).toMatchObject({ symbol: "SIM.0002" });
  });

  it("refuses a symbol outside the replayed universe, naming the field, and submits nothing", async () => {
    const { d, submitted } = deps();
    const r = await runBacktestHandler(runBacktestSpec.input.parse({ symbol: "600000" }), d, ctx);
    if (r.ok) throw new Error("expected an error");
    expect(r.error).toMatchObject({ code: "invalid_input", details: { field: "symbol" } });
    expect(r.error.message).toContain("SH.600000");
    expect((r.error.details?.messages as { zh?: string } | undefined)?.zh).toContain("模拟市场");
    const unknown = await runBacktestHandler(runBacktestSpec.input.parse({ symbol: "ZZZZ" }), d, ctx);
    expect(unknown.ok).toBe(false);
    expect(submitted).toEqual([]);
  });
});
