/** `screen_stocks`: the whole-market Wyckoff funnel, run in the background. */
import { ScreenInput } from "../../contracts/screening";
import { BackgroundAccepted } from "../../contracts/task";
import { defineToolSpec } from "./define";

/** The `screen_stocks` tool. */
export const screenStocksSpec = defineToolSpec({
  name: "screen_stocks",
  title: { zh: "全市场选股", en: "Screen the market" },
  description:
    "Runs the Wyckoff funnel over a whole market in the background (L1 liquidity → L2 channels → L3 sectors → L4 triggers → L5 confirmation + regime). Returns a task_id at once; the result (per-layer counts, trigger groups, top sectors, symbols for a report) arrives as a [SYSTEM NOTIFICATION]. board: all/main/chinext/star; market: cn/us.",
  input: ScreenInput,
  output: BackgroundAccepted,
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: true },
});
