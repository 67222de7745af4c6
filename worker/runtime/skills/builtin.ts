/** The built-in skills: /screen, /checkup, /report, /strategy, /backtest. */
import { parseSkill, type Skill } from "./skill";

const SOURCES = [
  `---
name: screen
description: 全市场威科夫漏斗筛选 · whole-market Wyckoff funnel screening
---
Run a whole-market screening with screen_stocks for: {user_input}
When the task id comes back, tell the user it runs in the background and that the result will arrive as a notification. When the result is in, summarise the per-layer counts, the trigger groups, the top sectors and the handful of names worth a closer look, with their triggers.`,
  `---
name: checkup
description: 持仓健康体检 · portfolio health check
---
Do a health check of the user's holdings: call portfolio with mode=diagnose. For each holding give its phase, health grade and reasons, P&L and stop status; list the ones in danger first, then warnings. Finish with what to watch this week. Extra focus from the user: {user_input}`,
  `---
name: report
description: AI 深度研报 · AI research report for up to 10 codes
---
Write a research report with generate_ai_report for: {user_input}
Use only prices and evidence from the tools; name the three camps (bullish, neutral, bearish) with their evidence and the levels that would change the view.`,
  `---
name: strategy
description: 攻守决策 · attack/defend decision for the portfolio
---
Make a strategy decision with generate_strategy_decision (portfolio and market regime). Report each action (EXIT / TRIM / HOLD / PROBE / ATTACK) with its priority, reason, lot size and stop (stops only tightened). Never change the portfolio yourself: any change goes through update_portfolio with the user's approval. Context: {user_input}`,
  `---
name: backtest
description: 策略回测 · backtest the funnel strategy
---
Run run_backtest for: {user_input}
Report trades, win rate, mean and median return, Sharpe, max drawdown, Calmar and CVaR95, and state the caveats (survivorship, look-ahead) the result names.`,
];

/** Built-in skills, parsed at load (a malformed one fails loudly here, in tests). */
export const BUILTIN_SKILLS: readonly Skill[] = SOURCES.map((source) => {
  const parsed = parseSkill(source, true);
  if (!parsed.ok) throw new Error(`built-in skill is malformed: ${parsed.error.message}`);
  return parsed.value;
});
