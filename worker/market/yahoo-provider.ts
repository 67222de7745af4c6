/**
 * Yahoo Finance chart v8 adapter (DOMAIN.md §2.6): US symbols and `.SS`/`.SZ` A-shares; daily bars
 * adjusted by adjclose, and minute bars. Best effort: Yahoo answers 429 to shared egress often.
 */
import type { SymbolInfo } from "../contracts/market";
import { err, ok, type Result } from "../lib/result";
import type { BarsQuery, MarketDataProvider, MinuteInterval, ProviderBars } from "../ports/market-data";
import type { HttpClient } from "./http-client";
import { parseYahooDaily, parseYahooMinutes, yahooSymbol } from "./parse/yahoo-chart";

const epoch = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000);

/** Range wide enough to hold `limit` trading days (calendar days × 1.5 plus a margin). */
function rangeFor(limit: number | undefined): string {
  if (!limit) return "max";
  if (limit <= 20) return "3mo";
  if (limit <= 120) return "1y";
  if (limit <= 240) return "2y";
  if (limit <= 1200) return "5y";
  return "max";
}

/** Creates the adapter over a configured base URL. */
export function createYahooProvider(o: { baseURL: string; http: HttpClient }): MarketDataProvider {
  const base = o.baseURL.replace(/\/+$/, "");
  const chart = (ticker: string, params: Record<string, string>) =>
    o.http.get(`${base}/v8/finance/chart/${encodeURIComponent(ticker)}?${new URLSearchParams(params)}`);
  return {
    name: "yahoo",
    supports: (s) => yahooSymbol(s) !== null && !s.simulated,
    async dailyBars(symbol: SymbolInfo, query: BarsQuery): Promise<Result<ProviderBars>> {
      const ticker = yahooSymbol(symbol);
      if (!ticker) return err("not_found", `yahoo does not carry ${symbol.id}`);
      const params: Record<string, string> = { interval: "1d", events: "div,splits" };
      if (query.from) {
        params.period1 = String(epoch(query.from));
        params.period2 = String(query.to ? epoch(query.to) + 86_400 : epoch("2050-01-01"));
      } else params.range = rangeFor(query.limit);
      const res = await chart(ticker, params);
      if (!res.ok) return res;
      const parsed = parseYahooDaily(res.value.text());
      if (!parsed.ok && res.value.status === 404) return err("not_found", `yahoo does not know ${ticker}`);
      if (!parsed.ok) return parsed;
      const bars = query.limit ? parsed.value.bars.slice(-query.limit) : parsed.value.bars;
      return ok({ bars, adjust: parsed.value.adjust, listing: parsed.value.listing });
    },
    async minuteBars(symbol: SymbolInfo, interval: MinuteInterval) {
      const ticker = yahooSymbol(symbol);
      if (!ticker) return err("not_found", `yahoo does not carry ${symbol.id}`);
      const res = await chart(ticker, { interval: interval === 60 ? "60m" : `${interval}m`, range: "1d" });
      if (!res.ok) return res;
      return parseYahooMinutes(res.value.text());
    },
  };
}
