/**
 * Prompts for the offline model's tests: the tools it sees, a user or system message, a tool turn
 * with its result, and the calls or text a decision holds.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { decide } from "../../../worker/runtime/offline-model";
export const TOOL_NAMES = [
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
export const PROPS: Record<string, Record<string, unknown>> = {
  analyze_stock: { code: {}, mode: {}, cost: {}, days: {}, asOf: {} },
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
export const tools = TOOL_NAMES.map((name) => ({
  type: "function" as const,
  name,
  inputSchema: { type: "object" as const, properties: PROPS[name] ?? {} },
}));

export function options(
  prompt: LanguageModelV4Prompt,
  names: readonly string[] = TOOL_NAMES,
): LanguageModelV4CallOptions {
  return { prompt, tools: tools.filter((t) => names.includes(t.name)) } as LanguageModelV4CallOptions;
}
export const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });
export const system = (content: string) => ({ role: "system" as const, content });
export function toolTurn(toolName: string, output: unknown, isError = false): LanguageModelV4Prompt {
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
export function calls(d: ReturnType<typeof decide>) {
  if (!("calls" in d)) throw new Error(`expected calls, got text: ${d.text.slice(0, 200)}`);
  return d.calls.map((c) => ({ toolName: c.toolName, input: JSON.parse(c.input) as Record<string, unknown> }));
}
export function text(d: ReturnType<typeof decide>): string {
  if (!("text" in d)) throw new Error(`expected text, got calls ${JSON.stringify(d.calls)}`);
  return d.text;
}
export const visible = tools.map((t) => ({ name: t.name, properties: t.inputSchema.properties }));
