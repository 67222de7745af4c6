/**
 * A whole fake A-share market for the fake upstream: a deterministic universe (SH/SZ main, ChiNext,
 * STAR, BSE; about 1 in 40 names ST; 30 industries), daily bars on weekdays ending at the market's
 * current day, served in Eastmoney's documented formats (clist pages with industry f100, listing date
 * f26, caps f20/f21 and trade date f297; push2his K-lines, forward-adjusted when fqt=1). A spec also
 * names corporate actions (a cash dividend/split: prices before the ex-date scale by `factor` in the
 * forward-adjusted history, and the ex-date's previous close is the adjusted one), suspended symbols
 * (no bar on their days, a clist row without a price) and delisted ones (gone from the list from a
 * date on). Pure TypeScript: the workerd tests build the same market to check what they stored.
 */
import type { PlainBar } from "./formats";

/** What the fake market is. */
export interface FakeMarketSpec {
  /** Stocks in the universe. */
  symbols: number;
  seed: number;
  /** The market's current trading day (`YYYY-MM-DD`, a weekday): the list shows it, K-lines end there. */
  day: string;
  /** The first trading day of every symbol's history (fixed, so a later `day` only adds bars). */
  start: string;
  actions?: { id: string; exDate: string; factor: number }[];
  /** Symbols without a bar on these days. */
  suspended?: { id: string; dates: string[] }[];
  /** Symbols the list no longer has from `from` on. */
  delisted?: { id: string; from: string }[];
}

/** One fake stock. */
export interface FakeStock {
  id: string;
  code: string;
  market: 0 | 1;
  name: string;
  industry: string;
  board: "main" | "chinext" | "star" | "bse";
  listedOn: string;
}

const INDUSTRIES = [
  "银行",
  "证券",
  "保险",
  "白酒",
  "医药",
  "医疗器械",
  "半导体",
  "软件开发",
  "通信设备",
  "消费电子",
  "光伏设备",
  "电池",
  "汽车整车",
  "汽车零部件",
  "家电",
  "食品加工",
  "化学制品",
  "钢铁",
  "有色金属",
  "煤炭",
  "石油",
  "电力",
  "建筑装饰",
  "房地产",
  "工程机械",
  "航空机场",
  "物流",
  "传媒",
  "游戏",
  "农牧饲渔",
];

/** The indices the sync keeps current, as the fake serves them. */
export const FAKE_INDICES: { id: string; code: string; market: 0 | 1; name: string }[] = [
  { id: "SH.000001", code: "000001", market: 1, name: "上证指数" },
  { id: "SZ.399001", code: "399001", market: 0, name: "深证成指" },
  { id: "SZ.399006", code: "399006", market: 0, name: "创业板指" },
  { id: "SH.000300", code: "000300", market: 1, name: "沪深300" },
];

/** Boards in proportion to the real market (≈ SH main 32 %, SZ main 28 %, ChiNext 25 %, STAR 11 %, BSE 4 %). */
function stockAt(i: number): FakeStock {
  const slot = i % 100;
  const n = Math.floor(i / 100) * 100 + slot;
  const pick = (prefix: number, m: 0 | 1, board: FakeStock["board"]) => {
    const code = String(prefix + n).padStart(6, "0");
    return { code, market: m, board, id: `${m === 1 ? "SH" : prefix >= 800000 ? "BJ" : "SZ"}.${code}` };
  };
  const s =
    slot < 32
      ? pick(600000, 1, "main")
      : slot < 60
        ? pick(1, 0, "main")
        : slot < 85
          ? pick(300000, 0, "chinext")
          : slot < 96
            ? pick(688000, 1, "star")
            : pick(830000, 0, "bse");
  const st = i % 40 === 7;
  return {
    ...s,
    name: `${st ? "ST" : ""}测试${INDUSTRIES[i % INDUSTRIES.length]}${i}`,
    industry: INDUSTRIES[(i * 7) % INDUSTRIES.length] ?? "银行",
    listedOn: "2010-01-04",
  };
}

const universes = new Map<number, { list: FakeStock[]; bySecid: Map<string, FakeStock> }>();

function universe(count: number) {
  let u = universes.get(count);
  if (!u) {
    const list = Array.from({ length: count }, (_, i) => stockAt(i));
    u = { list, bySecid: new Map(list.map((s) => [`${s.market}.${s.code}`, s])) };
    universes.set(count, u);
  }
  return u;
}

/** The universe (stocks only). */
export function fakeStocks(spec: Pick<FakeMarketSpec, "symbols">): FakeStock[] {
  return universe(spec.symbols).list;
}

const calendars = new Map<string, string[]>();

/** Weekdays from `start` to `day` inclusive, oldest first. */
export function weekdays(start: string, day: string): string[] {
  const key = `${start}/${day}`;
  const hit = calendars.get(key);
  if (hit) return hit;
  const out: string[] = [];
  const t = new Date(`${start}T00:00:00Z`);
  for (
    let d = t.toISOString().slice(0, 10);
    d <= day;
    t.setUTCDate(t.getUTCDate() + 1), d = t.toISOString().slice(0, 10)
  ) {
    const wd = t.getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(d);
  }
  calendars.set(key, out);
  return out;
}

/** mulberry32: a small deterministic PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hash = (s: string): number => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

const tick = (x: number): number => Math.max(0.01, Math.round(x * 100) / 100);

/**
 * Unadjusted bars of a symbol from `start` to `day` (the same prefix whatever `day` is, so a later
 * day only adds bars): a random walk on the 0.01 tick. A corporate action divides the price
 * at its ex-date by `factor`'s inverse (the stock really gaps).
 */
function rawBars(spec: FakeMarketSpec, id: string): (PlainBar & { traded: boolean })[] {
  const dates = weekdays(spec.start, spec.day);
  const r = rng(spec.seed ^ hash(id));
  const actions = (spec.actions ?? []).filter((a) => a.id === id);
  const suspended = new Set((spec.suspended ?? []).find((s) => s.id === id)?.dates ?? []);
  let price = 5 + 95 * r();
  const out: (PlainBar & { traded: boolean })[] = [];
  for (const date of dates) {
    const a = actions.find((x) => x.exDate === date);
    if (a) price *= a.factor;
    const drift = (r() - 0.5) * 0.06;
    const open = tick(price * (1 + (r() - 0.5) * 0.02));
    const close = tick(price * (1 + drift));
    const high = tick(Math.max(open, close) * (1 + r() * 0.02));
    const low = tick(Math.min(open, close) * (1 - r() * 0.02));
    const volume = Math.round(1e5 + r() * 5e6) * 100;
    price = close;
    out.push({ date, open, high, low, close, volume, traded: !suspended.has(date) });
  }
  return out;
}

/** Daily bars as the K-line endpoint serves them (`qfq`: forward-adjusted for actions up to `day`). */
export function fakeBars(spec: FakeMarketSpec, id: string, qfq = true): PlainBar[] {
  const raw = rawBars(spec, id).filter((b) => b.traded);
  if (!qfq) return raw.map(({ traded: _t, ...b }) => b);
  const actions = (spec.actions ?? []).filter((a) => a.id === id && a.exDate <= spec.day);
  return raw.map(({ traded: _t, ...b }) => {
    const f = actions.filter((a) => b.date < a.exDate).reduce((acc, a) => acc * a.factor, 1);
    if (f === 1) return b;
    return { ...b, open: tick(b.open * f), high: tick(b.high * f), low: tick(b.low * f), close: tick(b.close * f) };
  });
}

const compact = (d: string): number => Number(d.replaceAll("-", ""));

/** The whole list for `spec.day`, as clist rows (delisted names gone, suspended ones without a price). */
export function fakeClistRows(spec: FakeMarketSpec): Record<string, unknown>[] {
  const gone = new Set((spec.delisted ?? []).filter((d) => d.from <= spec.day).map((d) => d.id));
  const rows: Record<string, unknown>[] = [];
  for (const s of fakeStocks(spec)) {
    if (gone.has(s.id)) continue;
    const bars = fakeBars(spec, s.id);
    const last = bars.at(-1);
    const traded = last?.date === spec.day;
    const prev = traded ? bars.at(-2) : last;
    const row: Record<string, unknown> = {
      f12: s.code,
      f13: s.market,
      f14: s.name,
      f100: s.industry,
      f26: compact(s.listedOn),
      f297: compact(traded ? spec.day : (last?.date ?? spec.day)),
      f18: prev?.close ?? "-",
    };
    if (traded && last) {
      Object.assign(row, {
        f2: last.close,
        f3: prev ? Math.round((last.close / prev.close - 1) * 10000) / 100 : 0,
        f5: Math.round(last.volume / 100),
        f6: Math.round(last.volume * last.close),
        f15: last.high,
        f16: last.low,
        f17: last.open,
        f20: Math.round(last.close * 1e9),
        f21: Math.round(last.close * 6e8),
      });
    } else Object.assign(row, { f2: "-", f3: "-", f5: "-", f6: "-", f15: "-", f16: "-", f17: "-", f20: "-", f21: "-" });
    rows.push(row);
  }
  return rows;
}

/** The K-line answer for a secid (`1.600000`), honouring `beg`, `end` and `lmt`; null when unknown. */
export function fakeKline(
  spec: FakeMarketSpec,
  secid: string,
  q: { beg?: string; end?: string; lmt?: number; fqt?: string },
) {
  const [m, code] = secid.split(".");
  const index = FAKE_INDICES.find((x) => `${x.market}.${x.code}` === secid);
  const stock = index ? null : (universe(spec.symbols).bySecid.get(secid) ?? null);
  if (!index && !stock) return null;
  const id = index?.id ?? stock?.id ?? "";
  let bars = fakeBars(spec, id, q.fqt !== "0");
  const iso = (c: string) => `${c.slice(0, 4)}-${c.slice(4, 6)}-${c.slice(6, 8)}`;
  if (q.beg && /^\d{8}$/.test(q.beg) && q.beg !== "0") bars = bars.filter((b) => b.date >= iso(q.beg ?? ""));
  if (q.end && /^\d{8}$/.test(q.end)) bars = bars.filter((b) => b.date <= iso(q.end ?? ""));
  if (q.lmt && q.lmt > 0) bars = bars.slice(-q.lmt);
  return { code: code ?? "", market: Number(m) as 0 | 1, name: index?.name ?? stock?.name ?? "", bars };
}

/**
 * A fake US universe for the Yahoo chart endpoint (`/v8/finance/chart/{ticker}`, DOMAIN.md §2.6):
 * any plausible ticker answers with weekday bars from `start` to `day` (split-adjusted OHLC as Yahoo
 * serves them, adjclose = close) and a `meta` naming the listing (longName, exchangeName /
 * fullExchangeName, currency, instrumentType); `unknown` tickers answer Yahoo's 404 "Not Found";
 * `renamed` ones carry their new longName; `etf` ones are instrumentType ETF.
 */
export interface FakeUsSpec {
  seed: number;
  start: string;
  day: string;
  /** Splits or dividends: history before `exDate` scales by `factor`. */
  actions?: { ticker: string; exDate: string; factor: number }[];
  unknown?: string[];
  renamed?: { ticker: string; name: string }[];
  etf?: string[];
}

/** The listing the fake Yahoo names for a ticker. */
export function fakeUsListing(spec: FakeUsSpec, ticker: string) {
  const nyse = hash(ticker) % 2 === 0;
  return {
    symbol: ticker,
    longName: spec.renamed?.find((r) => r.ticker === ticker)?.name ?? `${ticker} Holdings, Inc.`,
    shortName: `${ticker} Holdings`,
    exchangeName: nyse ? "NYQ" : "NMS",
    fullExchangeName: nyse ? "NYSE" : "NasdaqGS",
    currency: "USD",
    instrumentType: spec.etf?.includes(ticker) ? "ETF" : "EQUITY",
  };
}

/** A ticker's daily bars as the fake Yahoo serves them (split-adjusted up to `spec.day`). */
export function fakeUsBars(spec: FakeUsSpec, ticker: string): PlainBar[] {
  return fakeBars(
    {
      symbols: 0,
      seed: spec.seed,
      start: spec.start,
      day: spec.day,
      actions: (spec.actions ?? []).map((a) => ({ id: `US.${a.ticker}`, exDate: a.exDate, factor: a.factor })),
    },
    `US.${ticker}`,
  );
}

const RANGE_DAYS: Record<string, number> = { "3mo": 92, "1y": 366, "2y": 731, "5y": 1827, "10y": 3653 };

/** The chart answer for a path's ticker: `{ status, body }` in Yahoo's format. */
export function fakeYahooChart(
  spec: FakeUsSpec,
  ticker: string,
  q: { range?: string; period1?: string; period2?: string },
): { status: number; body: unknown } {
  const known = /^(\^GSPC|[A-Z][A-Z0-9]{0,9}(-[A-Z0-9]{1,4})?)$/.test(ticker) && !spec.unknown?.includes(ticker);
  if (!known)
    return {
      status: 404,
      body: {
        chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } },
      },
    };
  let bars = fakeUsBars(spec, ticker);
  const day = Date.parse(`${spec.day}T00:00:00Z`) / 1000;
  const rangeDays = q.range ? RANGE_DAYS[q.range] : undefined;
  const from = q.period1 ? Number(q.period1) : rangeDays ? day - rangeDays * 86_400 : 0;
  const to = q.period2 ? Number(q.period2) : Number.POSITIVE_INFINITY;
  bars = bars.filter((b) => {
    const t = Date.parse(`${b.date}T14:30:00Z`) / 1000;
    return t >= from && t < to;
  });
  const listing =
    ticker === "^GSPC"
      ? {
          symbol: "^GSPC",
          longName: "S&P 500",
          shortName: "S&P 500",
          exchangeName: "SNP",
          fullExchangeName: "SNP",
          currency: "USD",
          instrumentType: "INDEX",
        }
      : fakeUsListing(spec, ticker);
  return {
    status: 200,
    body: {
      chart: {
        result: [
          {
            meta: { ...listing, gmtoffset: -18000, exchangeTimezoneName: "America/New_York", dataGranularity: "1d" },
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
    },
  };
}
