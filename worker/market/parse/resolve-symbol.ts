/**
 * Reads what a person or model typed as a symbol: canonical ids (`SH.600519`), Tencent style
 * (`sh600519`), Yahoo/Tushare suffixes (`600519.SS`, `000001.SZ`), Eastmoney secids (`1.000001`),
 * bare A-share codes, US tickers, index aliases (sse, 沪深300, S&P 500) and simulated codes (`SIM.0001`).
 * A bare `000001` is Ping An Bank (SZ stock) unless the caller asks for an index (SSE Composite).
 */
import type { Board } from "../../contracts/analysis";
import type { Exchange, SecurityKind, SymbolInfo } from "../../contracts/market";

/** A candidate reading of the input. */
export interface SymbolCandidate {
  id: string;
  exchange: Exchange;
  code: string;
  kind: SecurityKind;
}

/** Main indices by alias (lower case, spaces removed). */
export const INDEX_ALIASES: Record<string, { id: string; name: string }> = {};
const INDEX_TABLE: [string, string, string[]][] = [
  ["SH.000001", "上证指数", ["sse", "上证", "上证指数", "上证综指", "shcomp", "ssecomposite"]],
  ["SH.000300", "沪深300", ["csi300", "hs300", "沪深300"]],
  ["SZ.399001", "深证成指", ["szse", "深证", "深成指", "深证成指", "szcomp"]],
  ["SZ.399006", "创业板指", ["chinext", "gem", "创业板", "创业板指"]],
  ["SH.000016", "上证50", ["sse50", "上证50"]],
  ["SH.000905", "中证500", ["csi500", "中证500"]],
  ["US.SPX", "S&P 500", ["spx", "sp500", "s&p500", "^gspc", "gspc", "标普500", "标普"]],
];
for (const [id, name, aliases] of INDEX_TABLE) for (const a of aliases) INDEX_ALIASES[a] = { id, name };

/** Looks an index alias up (case- and space-insensitive). */
export function indexAlias(input: string): { id: string; name: string } | undefined {
  return INDEX_ALIASES[input.trim().toLowerCase().replace(/\s+/g, "")];
}

/** Exchange of an A-share stock code by its prefix (6/9 Shanghai, 4/8/92 Beijing, else Shenzhen). */
export function cnStockExchange(code: string): "SH" | "SZ" | "BJ" {
  if (/^(6|900)/.test(code)) return "SH";
  if (/^(4|8|92)/.test(code)) return "BJ";
  return "SZ";
}

/** Board of an A-share stock code (688/689 STAR, 300/301 ChiNext, Beijing BSE, else main). */
export function cnBoard(code: string): Board {
  if (/^68[89]/.test(code)) return "star";
  if (/^30[01]/.test(code)) return "chinext";
  if (cnStockExchange(code) === "BJ") return "bse";
  return "main";
}

/** True for codes that are indices on their exchange (SH 000xxx, SZ 399xxx). */
export function isCnIndexCode(exchange: Exchange, code: string): boolean {
  return (exchange === "SH" && /^000\d{3}$/.test(code)) || (exchange === "SZ" && /^399\d{3}$/.test(code));
}

function cn(exchange: "SH" | "SZ" | "BJ", code: string): SymbolCandidate {
  return { id: `${exchange}.${code}`, exchange, code, kind: isCnIndexCode(exchange, code) ? "index" : "stock" };
}

/**
 * Candidate readings of `input`, preferred first; empty when it does not look like a code (a name:
 * search for it). `kind` picks between a stock and an index reading of 6-digit codes.
 */
export function symbolCandidates(input: string, kind?: SecurityKind): SymbolCandidate[] {
  const raw = input.trim();
  const alias = indexAlias(raw);
  if (alias) {
    const [exchange = "SH", code = ""] = alias.id.split(".");
    return [{ id: alias.id, exchange: exchange as Exchange, code, kind: "index" }];
  }
  const up = raw.toUpperCase();
  let m = /^SIM[.\s]?(\d{4}|IDX\d)$/.exec(up);
  if (m?.[1])
    return [{ id: `SIM.${m[1]}`, exchange: "SIM", code: m[1], kind: m[1].startsWith("IDX") ? "index" : "stock" }];
  m = /^(SH|SZ|BJ)[.]?(\d{6})$/.exec(up) ?? /^(\d{6})\.(SH|SS|SZ|BJ)$/.exec(up);
  if (m?.[1] && m[2]) {
    const [code, ex] = /^\d/.test(m[1]) ? [m[1], m[2]] : [m[2], m[1]];
    return [cn(ex === "SS" ? "SH" : (ex as "SH" | "SZ" | "BJ"), code)];
  }
  m = /^([01])\.(\d{6})$/.exec(up);
  if (m?.[1] && m[2]) return [cn(m[1] === "1" ? "SH" : cnStockExchange(m[2]) === "BJ" ? "BJ" : "SZ", m[2])];
  m = /^US\.([A-Z][A-Z.-]{0,9})$/.exec(up);
  if (m?.[1]) return [{ id: `US.${m[1]}`, exchange: "US", code: m[1], kind: m[1] === "SPX" ? "index" : "stock" }];
  if (/^\d{6}$/.test(up)) {
    const stock = cn(cnStockExchange(up), up);
    const index = /^000\d{3}$/.test(up) ? cn("SH", up) : /^399\d{3}$/.test(up) ? cn("SZ", up) : undefined;
    if (!index) return [stock];
    if (stock.id === index.id) return [index];
    return kind === "index" ? [index, { ...stock, kind: "stock" }] : [{ ...stock, kind: "stock" }, index];
  }
  if (/^[A-Z][A-Z.-]{0,9}$/.test(up) && /^[A-Za-z.-]+$/.test(raw) && raw.length <= 6)
    return [{ id: `US.${up}`, exchange: "US", code: up, kind: "stock" }];
  return [];
}

/** A minimal SymbolInfo for a real code the universe does not list yet (name = code until a provider names it). */
export function inferSymbol(c: SymbolCandidate): SymbolInfo {
  const us = c.exchange === "US";
  return {
    id: c.id,
    market: us ? "US" : c.exchange === "SIM" ? "SIM" : "CN",
    exchange: c.exchange,
    code: c.code,
    name: c.code,
    pinyin: "",
    kind: c.kind,
    board: us || c.kind !== "stock" || c.exchange === "SIM" ? null : cnBoard(c.code),
    industry: null,
    status: "listed",
    currency: us ? "USD" : "CNY",
    simulated: c.exchange === "SIM",
  };
}
