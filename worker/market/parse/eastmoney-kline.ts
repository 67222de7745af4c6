/**
 * Eastmoney push2his K-line parser (DOMAIN.md §2.1). Rows are CSV strings in the order
 * date, OPEN, CLOSE, HIGH, LOW, volume (lots of 100), amount (CNY), amplitude, change %, change,
 * turnover — not OHLC. `data: null` means the secid is unknown.
 */
import { z } from "zod";
import type { Bar } from "../../contracts/analysis";
import type { MinuteBar } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { isValidOhlc, round, toNumber } from "./numbers";

const KlineResponse = z.object({
  rc: z.number().optional(),
  data: z
    .object({
      code: z.string(),
      market: z.number(),
      name: z.string(),
      klines: z.array(z.string()),
    })
    .nullable(),
});

/** What one K-line response holds. */
export interface EastmoneyKlines {
  code: string;
  name: string;
  /** Rows as [time, open, high, low, close, volumeShares, amount]; time is a date or `YYYY-MM-DD HH:MM`. */
  rows: [string, number, number, number, number, number, number | null][];
}

/** Volume multiplier: Eastmoney reports A-share volume in lots of 100 shares. */
export const EASTMONEY_LOT = 100;

/** Parses the K-line JSON text. `not_found` for `data: null`; `upstream_unavailable` for anything malformed. */
export function parseEastmoneyKlines(text: string): Result<EastmoneyKlines> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err("upstream_unavailable", "eastmoney answered something that is not JSON");
  }
  const parsed = KlineResponse.safeParse(json);
  if (!parsed.success) return err("upstream_unavailable", "eastmoney K-line response has an unexpected shape");
  const data = parsed.data.data;
  if (data === null) return err("not_found", "eastmoney has no data for this symbol");
  const rows: EastmoneyKlines["rows"] = [];
  for (const line of data.klines) {
    const f = line.split(",");
    const time = f[0] ?? "";
    const open = toNumber(f[1]);
    const close = toNumber(f[2]);
    const high = toNumber(f[3]);
    const low = toNumber(f[4]);
    const lots = toNumber(f[5]);
    if (
      !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$/.test(time) ||
      open === null ||
      close === null ||
      high === null ||
      low === null ||
      lots === null
    )
      return err("upstream_unavailable", `eastmoney K-line row is malformed: ${line.slice(0, 60)}`);
    rows.push([time, open, high, low, close, lots * EASTMONEY_LOT, toNumber(f[6])]);
  }
  return ok({ code: data.code, name: data.name, rows });
}

/** Daily bars from parsed rows; rows that are not valid bars (zero prices on suspension days) are dropped. */
export function eastmoneyDailyBars(k: EastmoneyKlines): Bar[] {
  const bars: Bar[] = [];
  for (const [date, open, high, low, close, volume, amount] of k.rows) {
    if (!isValidOhlc(open, high, low, close) || volume < 0) continue;
    const bar: Bar = { date: date.slice(0, 10), open, high, low, close, volume: round(volume, 0) };
    if (amount !== null && amount >= 0) bar.amount = amount;
    bars.push(bar);
  }
  return bars;
}

/** Minute bars from parsed rows (time `YYYY-MM-DD HH:MM`). */
export function eastmoneyMinuteBars(k: EastmoneyKlines): MinuteBar[] {
  return k.rows
    .filter(([time, open, high, low, close]) => time.length === 16 && isValidOhlc(open, high, low, close))
    .map(([time, open, high, low, close, volume, amount]) =>
      amount === null ? { time, open, high, low, close, volume } : { time, open, high, low, close, volume, amount },
    );
}
