/**
 * The whole A-share list from Eastmoney clist (DOMAIN.md §2.2): pages of 100 rows (the server's cap
 * since 2025), sorted by code so pages are stable, through the shared HTTP client (pacing, timeout,
 * one retry, circuit breaker).
 */
import type { UniverseFeed } from "../../ports/market-sync";
import { err } from "../../lib/result";
import { clistQuery } from "../eastmoney-provider";
import type { HttpClient } from "../http-client";
import { EASTMONEY_PAGE_SIZE } from "../parse/eastmoney-clist";
import { parseEastmoneyUniverse, UNIVERSE_FIELDS } from "../parse/eastmoney-universe";
import { eastmoneyHosts } from "../provider-hosts";

/** Creates the feed over a configured Eastmoney base URL. */
export function createEastmoneyUniverseFeed(o: { baseURL: string; http: HttpClient }): UniverseFeed {
  const hosts = eastmoneyHosts(o.baseURL);
  return {
    pageSize: EASTMONEY_PAGE_SIZE,
    async page(n) {
      const q = clistQuery(n, UNIVERSE_FIELDS);
      const res = await o.http.get(`${hosts.clist}/api/qt/clist/get?${q}`);
      if (!res.ok) return res;
      if (res.value.status === 404) return err("upstream_unavailable", "eastmoney list endpoint not found");
      return parseEastmoneyUniverse(res.value.text());
    },
  };
}
