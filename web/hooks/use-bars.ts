/**
 * Daily bars (and the server's analysis) of one symbol for a chart. `prefetchBars` starts a request
 * before React mounts (the entry does it for an `/analysis/:symbol` page, so the bars and the chart
 * code load side by side instead of one after the other); the first `useBars` for the same symbol
 * and days takes that request over.
 */
import type { MarketBarsResponse } from "@contracts/market";
import { useEffect, useState } from "react";
import { api, errorMessage } from "../lib/api-client";

interface Loaded {
  key: string;
  data: MarketBarsResponse | null;
  error: string | null;
}

const prefetched = new Map<string, Promise<MarketBarsResponse>>();

/** Starts loading `symbol`'s bars now; the next `useBars(symbol, days, …, end)` uses this request. */
export function prefetchBars(symbol: string, days: number, end?: string): void {
  const key = `${symbol}:${days}:${end ?? ""}`;
  if (prefetched.has(key)) return;
  const request = api.marketBars(symbol, days, undefined, end);
  // A failure is reported by the hook that takes the request over; none may be unhandled here.
  request.catch(() => undefined);
  prefetched.set(key, request);
}

/**
 * The bars answer, or the reason it could not be had. `skip` loads nothing (bars given already);
 * `end` (YYYY-MM-DD): the bars up to that close (a reading of history).
 */
export function useBars(
  symbol: string,
  days: number,
  skip = false,
  end?: string,
): { data: MarketBarsResponse | null; error: string | null } {
  const key = `${symbol}:${days}:${end ?? ""}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (skip) return;
    const controller = new AbortController();
    const early = prefetched.get(key);
    prefetched.delete(key);
    (early ?? api.marketBars(symbol, days, controller.signal, end))
      .then((data) => {
        if (!controller.signal.aborted) setLoaded({ key, data, error: null });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setLoaded({ key, data: null, error: errorMessage(e) });
      });
    return () => {
      controller.abort();
      // An unmount before the answer (StrictMode's double effect) leaves the request to the next mount.
      if (early) prefetched.set(key, early);
    };
  }, [key, symbol, days, skip, end]);
  return loaded?.key === key ? loaded : { data: null, error: null };
}
