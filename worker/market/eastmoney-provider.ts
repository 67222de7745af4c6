/**
 * Eastmoney adapter (DOMAIN.md §2.1–2.3): daily and minute K-lines from push2his, the whole-market
 * snapshot from push2 clist (100-row pages), search from the code table. A-shares and CN indices only:
 * secid `1.` for Shanghai, `0.` for Shenzhen and Beijing. Volume arrives in lots and leaves in shares.
 */
import type { MarketCode, SymbolInfo } from "../contracts/market";
import { err, ok, type Result } from "../lib/result";
import type { BarsQuery, MarketDataProvider, MinuteInterval, ProviderBars } from "../ports/market-data";
import type { HttpClient } from "./http-client";
import { EASTMONEY_PAGE_SIZE, parseEastmoneyClist } from "./parse/eastmoney-clist";
import { eastmoneyDailyBars, eastmoneyMinuteBars, parseEastmoneyKlines } from "./parse/eastmoney-kline";
import { parseEastmoneySearch } from "./parse/eastmoney-search";
import { eastmoneyHosts } from "./provider-hosts";

/** Snapshot filter per market: all A-shares including Beijing (efinance FS_DICT). */
const A_SHARE_FS = "m:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048";
const CLIST_FIELDS = "f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f20";

/** The query of one clist page of every A-share, sorted by code so pages are stable (DOMAIN.md §2.2). */
export function clistQuery(page: number, fields: string): URLSearchParams {
  return new URLSearchParams({
    pn: String(page),
    pz: String(EASTMONEY_PAGE_SIZE),
    po: "1",
    np: "1",
    fltt: "2",
    invt: "2",
    fid: "f12",
    fs: A_SHARE_FS,
    fields,
  });
}

/** The secid of a CN symbol (`1.600519`, `0.000001`, `1.000001` for the SSE Composite). */
export function eastmoneySecid(symbol: SymbolInfo): string {
  return `${symbol.exchange === "SH" ? 1 : 0}.${symbol.code}`;
}

const compact = (date: string): string => date.replaceAll("-", "");

/** Creates the adapter over a configured base URL (see provider-hosts.ts for the host mapping). */
export function createEastmoneyProvider(o: { baseURL: string; http: HttpClient }): MarketDataProvider {
  const hosts = eastmoneyHosts(o.baseURL);
  const kline = async (symbol: SymbolInfo, params: Record<string, string>) => {
    const q = new URLSearchParams({
      secid: eastmoneySecid(symbol),
      fields1: "f1,f2,f3,f4,f5,f6",
      fields2: "f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61",
      ut: "7eea3edcaed734bea9cbfc24409ed989",
      ...params,
    });
    const res = await o.http.get(`${hosts.kline}/api/qt/stock/kline/get?${q}`);
    if (!res.ok) return res;
    if (res.value.status === 404) return err("not_found", `eastmoney has no data for ${symbol.id}`);
    return parseEastmoneyKlines(res.value.text());
  };
  return {
    name: "eastmoney",
    supports: (s) => s.market === "CN",
    async dailyBars(symbol: SymbolInfo, query: BarsQuery): Promise<Result<ProviderBars>> {
      const params: Record<string, string> = {
        klt: "101",
        fqt: query.adjust === "qfq" ? "1" : "0",
        beg: query.from ? compact(query.from) : "0",
        end: query.to ? compact(query.to) : "20500101",
      };
      if (query.limit) params.lmt = String(query.limit);
      const k = await kline(symbol, params);
      if (!k.ok) return k;
      return ok({ bars: eastmoneyDailyBars(k.value), adjust: query.adjust, name: k.value.name });
    },
    async minuteBars(symbol: SymbolInfo, interval: MinuteInterval) {
      const k = await kline(symbol, {
        klt: String(interval),
        fqt: "0",
        beg: "0",
        end: "20500101",
        lmt: String(Math.ceil(240 / interval)),
      });
      if (!k.ok) return k;
      return ok(eastmoneyMinuteBars(k.value));
    },
    async search(query: string, limit: number) {
      const q = new URLSearchParams({
        client: "web",
        clientType: "webSuggest",
        clientVersion: "lastest",
        keyword: query,
        pageIndex: "1",
        pageSize: String(limit),
      });
      const res = await o.http.get(`${hosts.search}/codetable/search/web?${q}`);
      if (!res.ok) return res;
      if (res.value.status === 404) return ok([]);
      return parseEastmoneySearch(res.value.text());
    },
    async snapshotPage(market: MarketCode, page: number) {
      if (market !== "CN") return err("not_found", `eastmoney snapshot covers CN only, not ${market}`);
      const q = clistQuery(page, CLIST_FIELDS);
      const res = await o.http.get(`${hosts.clist}/api/qt/clist/get?${q}`);
      if (!res.ok) return res;
      if (res.value.status === 404) return err("upstream_unavailable", "eastmoney snapshot endpoint not found");
      return parseEastmoneyClist(res.value.text());
    },
  };
}
