/**
 * Tencent adapter (DOMAIN.md §2.3–2.4): forward-adjusted daily K-lines (fqkline, at most 640 rows a
 * call) and smartbox search. A-shares and CN indices only. Quotes (GBK) are parsed by
 * parse/tencent-quote.ts for the snapshot fallback.
 */
import type { SymbolInfo } from "../contracts/market";
import { err, ok, type Result } from "../lib/result";
import type { BarsQuery, MarketDataProvider, ProviderBars } from "../ports/market-data";
import type { HttpClient } from "./http-client";
import { parseTencentKlines, tencentSymbol } from "./parse/tencent-kline";
import { parseTencentSearch } from "./parse/tencent-search";
import { tencentHosts } from "./provider-hosts";

/** Most rows one fqkline call returns. */
export const TENCENT_MAX_ROWS = 640;

/** Creates the adapter over a configured base URL (see provider-hosts.ts for the host mapping). */
export function createTencentProvider(o: { baseURL: string; http: HttpClient }): MarketDataProvider {
  const hosts = tencentHosts(o.baseURL);
  return {
    name: "tencent",
    supports: (s) => s.market === "CN",
    async dailyBars(symbol: SymbolInfo, query: BarsQuery): Promise<Result<ProviderBars>> {
      const count = Math.min(TENCENT_MAX_ROWS, query.limit ?? TENCENT_MAX_ROWS);
      const adj = query.adjust === "qfq" ? "qfq" : "";
      const param = [tencentSymbol(symbol), "day", query.from ?? "", query.to ?? "", String(count), adj].join(",");
      const res = await o.http.get(`${hosts.kline}/appstock/app/fqkline/get?param=${encodeURIComponent(param)}`);
      if (!res.ok) return res;
      if (res.value.status === 404) return err("not_found", `tencent has no data for ${symbol.id}`);
      const parsed = parseTencentKlines(res.value.text(), symbol);
      if (!parsed.ok) return parsed;
      const bars = query.limit ? parsed.value.bars.slice(-query.limit) : parsed.value.bars;
      return ok({ bars, adjust: parsed.value.adjust === "hfq" ? "hfq" : parsed.value.adjust });
    },
    async search(query: string, limit: number) {
      const res = await o.http.get(`${hosts.search}/s3/?v=2&t=all&q=${encodeURIComponent(query)}`);
      if (!res.ok) return res;
      if (res.value.status === 404) return ok([]);
      const parsed = parseTencentSearch(res.value.text());
      return parsed.ok ? ok(parsed.value.slice(0, limit)) : parsed;
    },
  };
}
