/**
 * The real S&P 500 daily series 2000-01-03 … 2020-04-17 from the npm package `vega-datasets`
 * (`data/sp500-2000.csv`: date,open,high,low,close,adjclose,volume). Index levels; volume is the
 * index's reported share volume.
 */
import type { Bar } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { isValidOhlc, round, toNumber } from "../parse/numbers";

/** The bundled S&P 500 symbol (`US.SPX`, Yahoo `^GSPC`). */
export const SP500_SYMBOL: SymbolInfo = {
  id: "US.SPX",
  market: "US",
  exchange: "US",
  code: "SPX",
  name: "S&P 500 标普500",
  pinyin: "BP",
  kind: "index",
  board: null,
  industry: null,
  status: "listed",
  currency: "USD",
  simulated: false,
};

/** Parses the CSV; rows that are not valid bars are skipped. */
export function parseSp500Csv(text: string): Bar[] {
  const lines = text.trim().split(/\r?\n/);
  const header = (lines[0] ?? "").split(",");
  const col = (name: string): number => header.indexOf(name);
  const [d, o, h, l, c, v] = ["date", "open", "high", "low", "close", "volume"].map(col);
  if ([d, o, h, l, c, v].some((i) => i === undefined || i < 0)) throw new Error("sp500 CSV header changed");
  const bars: Bar[] = [];
  for (const line of lines.slice(1)) {
    const f = line.split(",");
    const date = f[d ?? 0] ?? "";
    const open = toNumber(f[o ?? 0]);
    const high = toNumber(f[h ?? 0]);
    const low = toNumber(f[l ?? 0]);
    const close = toNumber(f[c ?? 0]);
    const volume = toNumber(f[v ?? 0]);
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(date) ||
      open === null ||
      high === null ||
      low === null ||
      close === null ||
      volume === null
    )
      continue;
    const bar = {
      date,
      open: round(open, 2),
      high: round(high, 2),
      low: round(low, 2),
      close: round(close, 2),
      volume,
    };
    if (isValidOhlc(bar.open, bar.high, bar.low, bar.close)) bars.push(bar);
  }
  return bars;
}
