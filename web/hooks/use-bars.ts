/** Daily bars (and the server's analysis) of one symbol for a chart. */
import type { MarketBarsResponse } from "@contracts/market";
import { useEffect, useState } from "react";
import { api, errorMessage } from "../lib/api-client";

interface Loaded {
  key: string;
  data: MarketBarsResponse | null;
  error: string | null;
}

/** The bars answer, or the reason it could not be had. `skip` loads nothing (bars given already). */
export function useBars(
  symbol: string,
  days: number,
  skip = false,
): { data: MarketBarsResponse | null; error: string | null } {
  const key = `${symbol}:${days}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (skip) return;
    const controller = new AbortController();
    api
      .marketBars(symbol, days, controller.signal)
      .then((data) => setLoaded({ key, data, error: null }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setLoaded({ key, data: null, error: errorMessage(e) });
      });
    return () => controller.abort();
  }, [key, symbol, days, skip]);
  return loaded?.key === key ? loaded : { data: null, error: null };
}
