/**
 * Intent rules of the offline model: which tool a Chinese or English question asks for, and the
 * input to give it. Inputs adapt to the tool's JSON schema (property names are looked up, never
 * guessed blindly), so the offline model calls real tools with valid arguments.
 */

/** A tool as the model sees it: name and JSON-schema properties. */
export interface VisibleTool {
  name: string;
  properties: Record<string, unknown>;
}

/** One intent: its tool and how to read the question. */
interface IntentRule {
  id: string;
  tool: string;
  test: RegExp;
  /** Builds the abstract input (symbol, market…); keys are mapped onto the schema's names. */
  input: (text: string) => Record<string, unknown>;
}

/** A planned call. */
export interface PlannedCall {
  intent: string;
  toolName: string;
  input: Record<string, unknown>;
}

const SYMBOL_KEYS = ["code", "symbol", "ticker", "query", "keyword", "name", "q"];
const STOPWORDS = new Set([
  "I",
  "A",
  "THE",
  "AND",
  "OR",
  "OF",
  "IS",
  "IT",
  "ME",
  "MY",
  "US",
  "CN",
  "AI",
  "OK",
  "PE",
  "ETF",
  "VS",
]);

/** Extracts a stock reference: a 6-digit A-share code (with an optional exchange suffix or prefix), `SP500`/标普, a US ticker, or a name after 分析/analyze or before 怎么样 / 处于什么阶段. */
export function extractSymbol(text: string): string | undefined {
  const qualified = text.match(/\b(SIM\.(?:\d{4}|IDX\d)|(?:SH|SZ|BJ|US)\.[A-Z0-9]{1,6})\b/i);
  if (qualified?.[1]) return qualified[1].toUpperCase();
  const suffixed = text.match(/(?<![\d.])(\d{6})\.(SH|SZ|SS|BJ)\b/i);
  if (suffixed?.[1] && suffixed[2]) return `${suffixed[1]}.${suffixed[2].toUpperCase()}`;
  const prefixed = text.match(/(?<![A-Za-z\d])(sh|sz|bj)(\d{6})(?!\d)/i);
  if (prefixed?.[1] && prefixed[2]) return `${prefixed[1].toUpperCase()}.${prefixed[2]}`;
  const code = text.match(/(?<![\d.])(\d{6})(?![\d])/);
  if (code?.[1]) return code[1];
  if (/s&p\s*500|sp500|spx|标普|标准普尔/i.test(text)) return "US.SPX";
  const tickers = [...text.matchAll(/(?<![A-Za-z])([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![A-Za-z])/g)]
    .map((m) => m[1] ?? "")
    .filter((t) => t !== "" && !STOPWORDS.has(t));
  if (tickers[0]) return tickers[0];
  const named = text.match(
    /(?:分析|诊断|看看|研究|查找|搜索|查一下|查询)\s*(?:一下)?\s*([\u3400-\u9fffA-Za-z]{2,8}?)(?:的|走势|怎么样|如何|吗|？|\?|$|\s)/,
  );
  if (named?.[1]) return named[1];
  const how = text.match(
    /([\u3400-\u9fff]{2,8}?)(?:现在|最近|目前)?(?:怎么样|如何|走势|能买吗|还能拿吗|(?:处于|在)?(?:什么|哪个|哪一个?)(?:威科夫)?阶段|的威科夫)/,
  );
  if (how?.[1]) return how[1];
  const en = text.match(/\b(?:analy[sz]e|search(?: for)?|find|look up)\s+(?:the\s+)?([A-Za-z][A-Za-z .&-]{1,30})/i);
  return en?.[1]?.trim();
}

/** All stock codes a text names (6-digit codes, qualified ids, tickers), for reports. */
export function extractSymbols(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(SIM\.\d{4}|(?:SH|SZ|BJ|US)\.[A-Z0-9]{1,6})\b|(?<![\d.])(\d{6})(?!\d)/gi))
    out.add((m[1] ?? m[2] ?? "").toUpperCase());
  out.delete("");
  if (out.size === 0) {
    const one = extractSymbol(text);
    if (one) out.add(one);
  }
  return [...out].slice(0, 10);
}

function marketOf(text: string): "cn" | "us" {
  return /美股|us market|nasdaq|nyse|s&p|标普|\bus\b/i.test(text) ? "us" : "cn";
}

const RULES: IntentRule[] = [
  {
    id: "tasks",
    tool: "check_background_tasks",
    test: /后台任务|任务进度|task status|background tasks?|is .*(job|task).* done/i,
    input: () => ({}),
  },
  {
    id: "time",
    tool: "get_time",
    test: /几点|开盘了|收盘了|交易时段|what time|market (open|hours)|is the (a-share |us )?market open|today's date/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    // Always the diagnosis: it is read-only and carries prices, P&L, value and stops.
    id: "portfolio",
    tool: "portfolio",
    test: /持仓|仓位|组合|portfolio|holdings|positions/i,
    input: () => ({ mode: "diagnose" }),
  },
  {
    id: "screen",
    tool: "screen_stocks",
    test: /选股|筛选|扫描全市场|\bscreen(ing)?\b|scan the market/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    id: "backtest",
    tool: "run_backtest",
    test: /回测|backtest/i,
    input: (t) => ({ market: marketOf(t), symbol: extractSymbol(t.replace(/回测|backtest/gi, " ")) }),
  },
  {
    id: "report",
    tool: "generate_ai_report",
    test: /研报|研究报告|深度报告|research report|\breport on\b|write a report/i,
    input: (t) => ({ stock_codes: extractSymbols(t) }),
  },
  {
    id: "strategy",
    tool: "generate_strategy_decision",
    test: /攻守|攻防|策略决策|调仓建议|strategy decision|attack.{0,10}defend|what should i (buy|sell)/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    id: "intraday",
    tool: "intraday_analysis",
    test: /分时|盘中|日内|intraday|minute bars/i,
    input: (t) => ({ symbol: extractSymbol(t) }),
  },
  {
    id: "history",
    tool: "get_market_history",
    test: /指数历史|历史走势|大盘历史|index history|market history|history of the (index|market)/i,
    input: (t) => ({ index: indexOf(t) }),
  },
  {
    id: "overview",
    tool: "get_market_overview",
    test: /大盘|市场概况|行情概览|市况|market overview|how is the market|market today/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    id: "regime",
    tool: "market_regime",
    test: /市场状态|牛市|熊市|regime|bull or bear/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    id: "search",
    tool: "search_stock_by_name",
    test: /搜索|查找|代码是多少|(?<![a-z])search\b|find (the )?(stock|ticker)|look up/i,
    input: (t) => ({ symbol: extractSymbol(t) }),
  },
];

/** The index a history question names (default: the SSE Composite). */
function indexOf(text: string): string {
  if (/创业板|chinext/i.test(text)) return "chinext";
  if (/深证|深成|szse/i.test(text)) return "szse";
  if (/沪深300|csi\s*300/i.test(text)) return "csi300";
  if (/标普|s&p|spx/i.test(text)) return "spx";
  if (/模拟|sim\.idx|simulated/i.test(text)) return "SIM.IDX1";
  return "sse";
}

/** The intent rule of a tool (used to build a skill's call from the user's words). */
export function inputFor(toolName: string, text: string): Record<string, unknown> {
  return RULES.find((r) => r.tool === toolName)?.input(text) ?? {};
}

/** True when the question asks what the assistant remembers, or asks it to remember something. */
export function memoryIntent(text: string): "save" | "recall" | undefined {
  if (/^\s*(remember|记住|请记住|帮我记住)\b|^\s*(记住|请记住)/i.test(text)) return "save";
  if (
    /你记得|记得什么|记住了什么|记忆|what do you remember|do you remember|what do you know about me|recall/i.test(text)
  )
    return "recall";
  return undefined;
}

function schemaKey(properties: Record<string, unknown>, wanted: string): string | undefined {
  if (wanted in properties) return wanted;
  if (wanted === "stock_codes") return ["codes", "symbols"].find((k) => k in properties);
  if (wanted === "symbol") return SYMBOL_KEYS.find((k) => k in properties);
  return undefined;
}

/** Maps abstract input keys onto the tool's schema; drops what the schema does not have. */
export function fitInput(tool: VisibleTool, abstract: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(abstract)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    const target = schemaKey(tool.properties, key);
    if (target) out[target] = value;
  }
  return out;
}

/** The calls a question asks for, using only tools that exist; an analysis question with a symbol → analyze_stock. */
export function planCalls(text: string, tools: readonly VisibleTool[]): { calls: PlannedCall[]; missing: string[] } {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const calls: PlannedCall[] = [];
  const missing: string[] = [];
  const want = (id: string, toolName: string, abstract: Record<string, unknown>) => {
    const tool = byName.get(toolName);
    if (tool) calls.push({ intent: id, toolName, input: fitInput(tool, abstract) });
    else missing.push(toolName);
  };
  for (const rule of RULES) if (rule.test.test(text)) want(rule.id, rule.tool, rule.input(text));
  const symbol = extractSymbol(text);
  if (
    calls.length === 0 &&
    symbol &&
    /分析|诊断|走势|威科夫|阶段|怎么样|如何|analy[sz]e|wyckoff|phase|chart|看看|how is|how's/i.test(text)
  ) {
    want("analyze", "analyze_stock", { symbol, market: marketOf(text) });
  }
  return { calls, missing };
}
