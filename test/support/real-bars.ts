/**
 * Real daily bars for tests, read straight from disk: the S&P 500 2000–2020 from the devDependency
 * `vega-datasets` and the A-share day K-lines committed under `data/real/cn/` (hqchart, Apache-2.0;
 * see data/real/NOTICE.md). Rows that are not valid bars (the 16 bad 1991–95 OHLC rows of
 * 000001.sh, non-positive prices) are dropped, and so are repeated dates; nothing else is changed:
 * the stocks stay unadjusted, with their suspensions and ex-rights gaps.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Bar, Market } from "../../worker/contracts/analysis";
import { parseSp500Csv } from "../../worker/market/offline/sp500";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Symbols the loader knows: "SPX" and the A-share files under data/real/cn/. */
export const REAL_SYMBOLS = [
  "SPX",
  "000001.sh",
  "399001.sz",
  "000300.sh",
  "399005.sz",
  "399006.sz",
  "600000.sh",
  "000001.sz",
  "000151.sz",
] as const;
export type RealSymbol = (typeof REAL_SYMBOLS)[number];

/** Market of a real symbol. */
export function realMarket(symbol: string): Market {
  return symbol === "SPX" ? "US" : "CN";
}

const cache = new Map<string, Bar[]>();

function validBar(b: Bar): boolean {
  return (
    [b.open, b.high, b.low, b.close].every((x) => Number.isFinite(x) && x > 0) &&
    Number.isFinite(b.volume) &&
    b.volume >= 0 &&
    b.high >= b.low &&
    b.high >= b.open &&
    b.high >= b.close &&
    b.low <= b.open &&
    b.low <= b.close
  );
}

function loadCn(symbol: string): Bar[] {
  const file = path.join(ROOT, "data/real/cn", `${symbol}.json`);
  const json = JSON.parse(readFileSync(file, "utf8")) as { rows: number[][] };
  const out: Bar[] = [];
  for (const r of json.rows) {
    const d = String(r[0]);
    const bar: Bar = {
      date: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`,
      open: r[2] ?? Number.NaN,
      high: r[3] ?? Number.NaN,
      low: r[4] ?? Number.NaN,
      close: r[5] ?? Number.NaN,
      volume: r[6] ?? Number.NaN,
    };
    const amount = r[7];
    if (amount !== undefined && Number.isFinite(amount) && amount >= 0) bar.amount = amount;
    const prev = out[out.length - 1];
    if (!validBar(bar) || (prev && bar.date <= prev.date)) continue;
    out.push(bar);
  }
  return out;
}

/** All valid bars of a real series, oldest first (cached; treat as read-only). */
export function loadRealBars(symbol: RealSymbol | string): readonly Bar[] {
  const hit = cache.get(symbol);
  if (hit) return hit;
  const bars =
    symbol === "SPX"
      ? parseSp500Csv(readFileSync(path.join(ROOT, "node_modules/vega-datasets/data/sp500-2000.csv"), "utf8"))
      : loadCn(symbol);
  cache.set(symbol, bars);
  return bars;
}

/** Index of the first bar dated on or after `date` (bars.length when none). */
export function indexOnOrAfter(bars: readonly Bar[], date: string): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bars[mid]?.date ?? "") < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
