/**
 * Bodies in each provider's documented format (DOMAIN.md §2), built from plain bars, for the fake
 * upstream. Pure TypeScript (no Node APIs) so workerd tests can build fixtures too.
 */

/** A bar as tests write it (volume in shares). */
export interface PlainBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Eastmoney push2his K-line JSON: rows `date,open,close,high,low,lots,amount,…`; `data: null` when `bars` is null. */
export function eastmoneyKline(code: string, market: 0 | 1, name: string, bars: PlainBar[] | null): unknown {
  if (bars === null) return { rc: 0, rt: 17, svr: 1, lt: 1, full: 0, data: null };
  const klines = bars.map((b) =>
    [
      b.date,
      b.open.toFixed(2),
      b.close.toFixed(2),
      b.high.toFixed(2),
      b.low.toFixed(2),
      String(Math.round(b.volume / 100)),
      (b.volume * b.close).toFixed(2),
      "1.00",
      "0.50",
      "0.05",
      "0.80",
    ].join(","),
  );
  return {
    rc: 0,
    rt: 17,
    svr: 1,
    lt: 1,
    full: 0,
    data: { code, market, name, decimal: 2, dktotal: bars.length, preKPrice: bars[0]?.open ?? 0, klines },
  };
}

/** Tencent fqkline JSON (`kline_dayqfq=` wrapped), rows `[date, open, close, high, low, lots]`. */
export function tencentKline(symbol: string, bars: PlainBar[]): string {
  const rows = bars.map((b) => [
    b.date,
    b.open.toFixed(3),
    b.close.toFixed(3),
    b.high.toFixed(3),
    b.low.toFixed(3),
    (b.volume / 100).toFixed(3),
  ]);
  return `kline_dayqfq=${JSON.stringify({ code: 0, msg: "", data: { [symbol]: { qfqday: rows, qt: {} } } })}`;
}

/** Yahoo chart v8 JSON for daily bars (UTC dates, gmtoffset 0, adjclose = close). */
export function yahooChart(symbol: string, bars: PlainBar[]): unknown {
  return {
    chart: {
      result: [
        {
          meta: {
            currency: "USD",
            symbol,
            gmtoffset: 0,
            exchangeTimezoneName: "America/New_York",
            dataGranularity: "1d",
          },
          timestamp: bars.map((b) => Date.parse(`${b.date}T14:30:00Z`) / 1000),
          indicators: {
            quote: [
              {
                open: bars.map((b) => b.open),
                high: bars.map((b) => b.high),
                low: bars.map((b) => b.low),
                close: bars.map((b) => b.close),
                volume: bars.map((b) => b.volume),
              },
            ],
            adjclose: [{ adjclose: bars.map((b) => b.close) }],
          },
        },
      ],
      error: null,
    },
  };
}

/** Yahoo's 429 body ("Too Many Requests"), served with status 429. */
export const YAHOO_429_BODY = "Too Many Requests\r\n";

/** An Eastmoney clist row (`f` field ids; volume in lots). */
export function clistRow(
  code: string,
  market: 0 | 1,
  name: string,
  price: number,
  changePct: number,
): Record<string, unknown> {
  return {
    f2: price,
    f3: changePct,
    f4: 0,
    f5: 1000,
    f6: price * 100_000,
    f8: 0.5,
    f12: code,
    f13: market,
    f14: name,
    f15: price * 1.01,
    f16: price * 0.99,
    f17: price,
    f18: price / (1 + changePct / 100),
    f20: 1e10,
  };
}

/** `n` business-day bars ending at `end`, a gentle random-free zigzag around `start`. */
export function makeBars(n: number, end: string, start = 10): PlainBar[] {
  const dates: string[] = [];
  const d = new Date(`${end}T00:00:00Z`);
  while (dates.length < n) {
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) dates.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() - 1);
  }
  dates.reverse();
  return dates.map((date, i) => {
    const close = Math.round((start * (1 + 0.002 * i) + 0.3 * Math.sin(i / 3)) * 100) / 100;
    const open = Math.round((close - 0.05 * Math.cos(i)) * 100) / 100;
    return {
      date,
      open,
      high: Math.max(open, close) + 0.1,
      low: Math.min(open, close) - 0.1,
      close,
      volume: 1_000_000 + 10_000 * (i % 7),
    };
  });
}
