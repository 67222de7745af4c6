/**
 * The simulated A-share market (market `SIM`, ids `SIM.0001`…): seeded, so every run and every test
 * sees the same symbols. Each stock is one of the engine's Wyckoff schematics (worker/engine/sim)
 * preceded by a quiet random walk, or a plain trend/range walk, on one shared business-day calendar;
 * two equal-weight indices summarise it. Not real data: every symbol is flagged `simulated`.
 */
import type { Bar, Board } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { createBarBuilder } from "../../engine/sim/bar-builder";
import { createRng, intBetween, pick, type Rng, uniform } from "../../engine/sim/rng";
import { generateSchematic, type SchematicKind } from "../../engine/sim/schematics";
import { round } from "../parse/numbers";

/** Shape of the simulated market. */
export interface SimMarketOptions {
  seed: number;
  stocks: number;
  /** Trading days per series (≥ 320). */
  days: number;
  /** Last trading day of the calendar. */
  endDate: string;
}

/** Defaults used by `npm start` and the tests. */
export const SIM_MARKET_DEFAULTS: SimMarketOptions = { seed: 20260630, stocks: 300, days: 340, endDate: "2026-06-30" };

/** Simulated index ids. */
export const SIM_INDEX_COMPOSITE = "SIM.IDX1";
export const SIM_INDEX_GROWTH = "SIM.IDX2";

const PREFIX: [string, string][] = [
  ["华", "H"],
  ["盛", "S"],
  ["瑞", "R"],
  ["恒", "H"],
  ["鑫", "X"],
  ["宏", "H"],
  ["远", "Y"],
  ["天", "T"],
  ["海", "H"],
  ["金", "J"],
  ["龙", "L"],
  ["达", "D"],
  ["新", "X"],
  ["安", "A"],
  ["泰", "T"],
  ["中", "Z"],
  ["光", "G"],
  ["明", "M"],
  ["永", "Y"],
  ["嘉", "J"],
  ["博", "B"],
  ["润", "R"],
  ["东", "D"],
  ["南", "N"],
  ["信", "X"],
  ["德", "D"],
  ["诚", "C"],
  ["康", "K"],
  ["和", "H"],
  ["峰", "F"],
  ["辰", "C"],
  ["启", "Q"],
];
const INDUSTRIES: [string, string, string][] = [
  ["电子", "电子", "DZ"],
  ["半导体", "微电", "WD"],
  ["医药生物", "医药", "YY"],
  ["银行", "银行", "YH"],
  ["食品饮料", "食品", "SP"],
  ["电力设备", "电气", "DQ"],
  ["计算机", "软件", "RJ"],
  ["有色金属", "矿业", "KY"],
  ["汽车", "汽车", "QC"],
  ["基础化工", "化学", "HX"],
  ["房地产", "置业", "ZY"],
  ["机械设备", "重工", "ZG"],
];

function businessDaysEndingAt(end: string, n: number): string[] {
  const out: string[] = [];
  const d = new Date(`${end}T00:00:00Z`);
  while (out.length < n) {
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() - 1);
  }
  return out.reverse();
}

/** A quiet walk of `n` bars ending near `endPrice`, at the given volume and spread. */
function walk(rng: Rng, n: number, endPrice: number, baseVolume: number, baseSpread: number, drift: number): Bar[] {
  const b = createBarBuilder({
    rng,
    startPrice: endPrice / drift,
    startDate: "2020-01-01",
    baseVolume,
    baseSpread,
    noise: 0.008,
    volSigma: 0.25,
    quietVrCap: 1.6,
  });
  const legs = Math.max(1, Math.round(n / 40));
  let done = 0;
  for (let k = 1; k <= legs; k++) {
    const len = k === legs ? n - done : Math.floor(n / legs);
    const target = k === legs ? endPrice : (endPrice / drift) * drift ** (k / legs) * uniform(rng, 0.9, 1.1);
    b.path(target, len);
    done += len;
  }
  return b.bars;
}

function seriesFor(rng: Rng, board: Board, days: number): Bar[] {
  const style = pick(rng, [
    ["schematic", 0.65],
    ["walk", 0.35],
  ] as const);
  if (style === "walk") {
    const price = uniform(rng, 5, 60);
    return walk(rng, days, price, uniform(rng, 8e6, 5e7), uniform(rng, 0.02, 0.032), uniform(rng, 0.6, 1.7));
  }
  const kind = pick<SchematicKind>(rng, [
    ["accumulation", 0.25],
    ["distribution", 0.2],
    ["failed_accumulation", 0.125],
    ["failed_distribution", 0.125],
    ["reaccumulation", 0.15],
    ["redistribution", 0.15],
  ]);
  const s = generateSchematic({ kind, market: "CN", board, rng, noise: rng.next() < 0.7 ? "realistic" : "clean" });
  // Keep the structure near the end: trim a random part of the markup/markdown tail.
  const trim = intBetween(rng, 0, 30);
  const body = s.bars.slice(0, Math.max(120, s.bars.length - trim));
  if (body.length >= days) return body.slice(-days);
  const head = body.slice(0, 20);
  const first = body[0];
  const vol = head.reduce((a, x) => a + x.volume, 0) / Math.max(1, head.length);
  const spread = head.reduce((a, x) => a + (x.high - x.low) / x.close, 0) / Math.max(1, head.length);
  const prefix = walk(rng, days - body.length, first?.open ?? 10, vol, spread, uniform(rng, 0.8, 1.25));
  return [...prefix, ...body];
}

function withAmount(bars: Bar[], dates: string[]): Bar[] {
  return bars.map((b, i) => ({
    date: dates[i] ?? b.date,
    open: round(b.open, 2),
    high: round(b.high, 2),
    low: round(b.low, 2),
    close: round(b.close, 2),
    volume: Math.round(b.volume / 100) * 100,
    amount: Math.round((b.volume * (b.open + b.high + b.low + b.close)) / 4),
  }));
}

/** Fixes OHLC after rounding (high ≥ open/close ≥ low). */
function tidy(b: Bar): Bar {
  return { ...b, high: Math.max(b.high, b.open, b.close), low: Math.min(b.low, b.open, b.close) };
}

/** Equal-weight index of `members` (same calendar), starting at `base`. */
export function equalWeightIndex(members: readonly Bar[][], dates: readonly string[], base: number): Bar[] {
  const out: Bar[] = [];
  let level = base;
  for (let t = 0; t < dates.length; t++) {
    let o = 0;
    let h = 0;
    let l = 0;
    let c = 0;
    let v = 0;
    let a = 0;
    let n = 0;
    for (const m of members) {
      const cur = m[t];
      const prev = m[t - 1];
      if (!cur) continue;
      const ref = prev?.close ?? cur.open;
      o += cur.open / ref - 1;
      h += cur.high / ref - 1;
      l += cur.low / ref - 1;
      c += cur.close / ref - 1;
      v += cur.volume;
      a += cur.amount ?? 0;
      n += 1;
    }
    const k = Math.max(1, n);
    const prevLevel = level;
    level = prevLevel * (1 + c / k);
    const open = prevLevel * (1 + o / k);
    const bar = tidy({
      date: dates[t] ?? "",
      open: round(open, 2),
      high: round(prevLevel * (1 + h / k), 2),
      low: round(prevLevel * (1 + l / k), 2),
      close: round(level, 2),
      volume: v,
      amount: a,
    });
    out.push(bar);
  }
  return out;
}

/** The simulated market: symbols (stocks then the two indices) and their bars. */
export function buildSimMarket(o: SimMarketOptions = SIM_MARKET_DEFAULTS): {
  symbols: SymbolInfo[];
  bars: Map<string, Bar[]>;
} {
  const rng = createRng(o.seed);
  const dates = businessDaysEndingAt(o.endDate, o.days);
  const symbols: SymbolInfo[] = [];
  const bars = new Map<string, Bar[]>();
  const used = new Set<string>();
  const growth: Bar[][] = [];
  const all: Bar[][] = [];
  for (let i = 1; i <= o.stocks; i++) {
    const board = pick<Board>(rng, [
      ["main", 0.6],
      ["chinext", 0.25],
      ["star", 0.15],
    ]);
    const [industry, suffix, suffixPy] = INDUSTRIES[intBetween(rng, 0, INDUSTRIES.length - 1)] ?? [
      "电子",
      "电子",
      "DZ",
    ];
    let name = "";
    let py = "";
    for (let tries = 0; tries < 50 && (name === "" || used.has(name)); tries++) {
      const a = PREFIX[intBetween(rng, 0, PREFIX.length - 1)] ?? ["华", "H"];
      const b = PREFIX[intBetween(rng, 0, PREFIX.length - 1)] ?? ["瑞", "R"];
      if (a[0] === b[0]) continue;
      name = `${a[0]}${b[0]}${suffix}`;
      py = `${a[1]}${b[1]}${suffixPy}`;
    }
    if (used.has(name)) name = `${name}${i}`;
    used.add(name);
    const code = String(i).padStart(4, "0");
    const id = `SIM.${code}`;
    symbols.push({
      id,
      market: "SIM",
      exchange: "SIM",
      code,
      name,
      pinyin: py,
      kind: "stock",
      board,
      industry,
      status: "listed",
      currency: "CNY",
      simulated: true,
    });
    const series = withAmount(seriesFor(rng, board, o.days), dates).map(tidy);
    bars.set(id, series);
    all.push(series);
    if (board !== "main") growth.push(series);
  }
  const idx = (id: string, code: string, name: string, pinyin: string, members: Bar[][], base: number): void => {
    symbols.push({
      id,
      market: "SIM",
      exchange: "SIM",
      code,
      name,
      pinyin,
      kind: "index",
      board: null,
      industry: null,
      status: "listed",
      currency: "CNY",
      simulated: true,
    });
    bars.set(id, equalWeightIndex(members, dates, base));
  };
  idx(SIM_INDEX_COMPOSITE, "IDX1", "模拟综合指数", "MNZHZS", all, 3000);
  idx(SIM_INDEX_GROWTH, "IDX2", "模拟成长指数", "MNCZZS", growth, 2000);
  return { symbols, bars };
}
