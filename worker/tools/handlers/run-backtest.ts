/**
 * Handler of `run_backtest`: checks a named symbol against the market the backtest replays (the
 * simulated market offline, real A-shares live, US stocks for `us`), then queues the job and answers
 * its task id at once. A symbol outside that market is a tool error naming it, not an empty run.
 */
import { err } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { runBacktestSpec } from "../specs/run-backtest";
import { submitBackground } from "./submit-background";

/** Starts a `run_backtest` task in the calling session. */
export const runBacktestHandler: ToolHandler<typeof runBacktestSpec> = async (input, deps, ctx) => {
  if (!input.symbol) return submitBackground("run_backtest", input, deps, ctx);
  const r = await deps.market.resolve(input.symbol);
  if (!r.ok) return r;
  const s = r.value.symbol;
  const market = input.market === "us" ? "US" : deps.market.mode === "offline" ? "SIM" : "CN";
  if (s.market !== market || s.kind !== "stock") {
    const where =
      market === "SIM" ? "the simulated market (SIM.0001–SIM.0300)" : market === "US" ? "US stocks" : "A-share stocks";
    const whereZh = market === "SIM" ? "模拟市场（SIM.0001–SIM.0300）" : market === "US" ? "美股" : "A 股个股";
    return err("invalid_input", `symbol: ${s.id} is not a stock of the backtest's universe, ${where}.`, {
      field: "symbol",
      messages: {
        en: `symbol: ${s.id} is not a stock of the backtest's universe, ${where}.`,
        zh: `symbol：${s.id} 不在回测范围内（${whereZh}）。`,
      },
    });
  }
  return submitBackground("run_backtest", { ...input, symbol: s.id }, deps, ctx);
};
