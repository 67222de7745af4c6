/**
 * What long-term memory never keeps: trades of a specific stock, temporary position
 * facts, the day's market state, and tool-call details — plus anything that looks like a secret.
 * Applied to every sentence the rules pick and every line a model proposes.
 */
import { stockCodes } from "./stock-codes";

/** Why a sentence was refused (for tests and logs). */
export type RefusalReason = "trade" | "position" | "market_today" | "tool_detail" | "secret";

const TRADE_VERB =
  /买入|卖出|买了|卖了|加仓|减仓|清仓|建仓|抄底了|止损了|平仓|挂单|成交|\b(?:bought|sold|buy|sell|selling|buying|added to|trimmed|exited)\b/i;
const SHARE_COUNT = /\d+\s*(?:股|手)(?![票市价])|\d+\s*shares?\b|成本价|成本在|均价|cost basis|average cost/i;
const POSITION_NOW =
  /(?:现在|目前|当前|眼下|刚刚|刚才|今天|此刻|currently|right now|at the moment|today)[^。！？.!?]{0,12}(?:持有|持仓|仓位|满仓|空仓|半仓|拿着|hold|holding|position|own)|(?:我的持仓|我持有|我拿着|my position|my holdings|i hold|i own|i'm holding)/i;
const DAY_DEIXIS =
  /今天|今日|昨天|昨日|明天|今早|今晚|本周|这周|上周|盘中|刚才|刚刚|\b(?:today|yesterday|tomorrow|tonight|this morning|this afternoon|this week|last week)\b/i;
const MARKET_WORD =
  /大盘|指数|市场|行情|沪指|深成指|创业板|涨停|跌停|收盘|开盘|上涨|下跌|大涨|大跌|涨了|跌了|\b(?:market|index|indices|s&p|nasdaq|dow|closed|opened|rallied|fell|dropped|rose|surged)\b/i;
const TOOL_DETAIL =
  /\b[a-z]+_[a-z_]+\b|调用|工具|tool call|function call|\btool\b|task_id|\btask\b|json|\{\s*"|后台任务/i;
const SECRET = /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}|\bBearer\s+\S+|api[-_ ]?key|password|密码|令牌|token/i;

/** The reason `sentence` must not be stored, or null when it may be. */
export function refusalOf(sentence: string): RefusalReason | null {
  if (SECRET.test(sentence)) return "secret";
  if (TOOL_DETAIL.test(sentence)) return "tool_detail";
  const names = stockCodes(sentence).length > 0;
  if (TRADE_VERB.test(sentence) && (names || SHARE_COUNT.test(sentence) || /\d/.test(sentence))) return "trade";
  if (SHARE_COUNT.test(sentence) || POSITION_NOW.test(sentence)) return "position";
  if (DAY_DEIXIS.test(sentence) && (MARKET_WORD.test(sentence) || names)) return "market_today";
  if (DAY_DEIXIS.test(sentence) && TRADE_VERB.test(sentence)) return "trade";
  return null;
}
