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

/** Extracts a stock reference: a 6-digit A-share code, `SP500`/标普, a US ticker, or a name after 分析/analyze. */
export function extractSymbol(text: string): string | undefined {
  const qualified = text.match(/\b(SIM\.(?:\d{4}|IDX\d)|(?:SH|SZ|BJ|US)\.[A-Z0-9]{1,6})\b/i);
  if (qualified?.[1]) return qualified[1].toUpperCase();
  const code = text.match(/(?<![\d.])(?:sh|sz|bj)?(\d{6})(?![\d])/i);
  if (code?.[1]) return code[1];
  if (/s&p\s*500|sp500|spx|标普|标准普尔/i.test(text)) return "US.SPX";
  const tickers = [...text.matchAll(/(?<![A-Za-z])([A-Z]{1,5}(?:\.[A-Z]{1,2})?)(?![A-Za-z])/g)]
    .map((m) => m[1] ?? "")
    .filter((t) => t !== "" && !STOPWORDS.has(t));
  if (tickers[0]) return tickers[0];
  const named = text.match(/(?:分析|诊断|看看|研究|查找|搜索|查一下|查询)\s*(?:一下)?\s*([\u3400-\u9fffA-Za-z]{2,8})/);
  if (named?.[1]) return named[1];
  const en = text.match(/\b(?:analy[sz]e|search(?: for)?|find|look up)\s+([A-Za-z][A-Za-z .&-]{1,30})/i);
  return en?.[1]?.trim();
}

function marketOf(text: string): "cn" | "us" {
  return /美股|us market|nasdaq|nyse|s&p|标普|\bus\b/i.test(text) ? "us" : "cn";
}

const RULES: IntentRule[] = [
  {
    id: "tasks",
    tool: "check_background_tasks",
    test: /后台任务|任务进度|task status|background task|is .*(job|task).* done/i,
    input: () => ({}),
  },
  {
    id: "time",
    tool: "get_time",
    test: /几点|时间|开盘|收盘|交易时段|what time|market (open|hours)|is the market open|today's date/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  {
    id: "portfolio",
    tool: "portfolio",
    test: /持仓|仓位|组合|portfolio|holdings|positions/i,
    input: (t) => ({ mode: /体检|诊断|健康|diagnos|health/i.test(t) ? "diagnose" : "view" }),
  },
  {
    id: "screen",
    tool: "screen_stocks",
    test: /选股|筛选|扫描全市场|screen|scan the market/i,
    input: (t) => ({ market: marketOf(t) }),
  },
  { id: "backtest", tool: "run_backtest", test: /回测|backtest/i, input: () => ({}) },
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
    test: /搜索|查找|代码是多少|search|find (the )?(stock|ticker)|look up/i,
    input: (t) => ({ symbol: extractSymbol(t) }),
  },
];

function schemaKey(properties: Record<string, unknown>, wanted: string): string | undefined {
  if (wanted in properties) return wanted;
  if (wanted === "symbol") return SYMBOL_KEYS.find((k) => k in properties);
  return undefined;
}

/** Maps abstract input keys onto the tool's schema; drops what the schema does not have. */
export function fitInput(tool: VisibleTool, abstract: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(abstract)) {
    if (value === undefined) continue;
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
  if (calls.length === 0 && symbol && /分析|诊断|走势|威科夫|阶段|analy[sz]e|wyckoff|phase|chart|看看/i.test(text)) {
    want("analyze", "analyze_stock", { symbol, market: marketOf(text) });
  }
  return { calls, missing };
}
