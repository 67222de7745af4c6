/** `generate_strategy_decision`: screen → report → OMS orders, in the background. */
import { StrategyInput } from "../../contracts/report";
import { BackgroundAccepted } from "../../contracts/task";
import { defineToolSpec } from "./define";

/** The `generate_strategy_decision` tool. */
export const generateStrategyDecisionSpec = defineToolSpec({
  name: "generate_strategy_decision",
  title: { zh: "攻防决策", en: "Strategy decision" },
  description:
    "Runs the screening, a report on its picks and the OMS in the background: EXIT > TRIM > HOLD > PROBE/ATTACK, buys frozen in CRASH/RISK_OFF, stops only tightened, 100-share lots sized by 0.8%/1.2% NAV risk. Without holdings and free_cash it uses the user's saved portfolio. Returns a task_id at once; orders arrive as a [SYSTEM NOTIFICATION]. Not investment advice.",
  input: StrategyInput,
  output: BackgroundAccepted,
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: true },
});
