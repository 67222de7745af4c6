/**
 * Pure statistics the market tools share: percent changes, an index window's summary (PARITY.md
 * get_market_history), breadth over a universe, and the regime reading built on the engine's
 * `marketRegime`.
 */
import type { Bar } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { blocksEntries, type BreadthDay, marketRegime } from "../../engine/market-regime";
import type { HistorySummary } from "../specs/get-market-history";
import type { Breadth, RegimeReading } from "../specs/market-regime";
import type { SymbolBrief } from "../specs/market-source";

/** Percent change a → b, 2 decimals. */
export function pctChange(from: number, to: number): number {
  return Math.round((to / from - 1) * 10000) / 100;
}

/** The symbol as tools report it. */
export function brief(s: SymbolInfo): SymbolBrief {
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    market: s.market,
    kind: s.kind,
    board: s.board,
    industry: s.industry,
    simulated: s.simulated,
  };
}

/** Price rows with change % against the previous bar. */
export function priceRows(bars: readonly Bar[], prev?: Bar) {
  return bars.map((b, i) => {
    const p = i > 0 ? bars[i - 1] : prev;
    return {
      date: b.date,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      volume: b.volume,
      pctChg: p ? pctChange(p.close, b.close) : null,
    };
  });
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const orNull = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);

/** Summary of a window (`bars` = the window; `before` = the bar before it, for the first change). */
export function historySummary(bars: readonly Bar[], before?: Bar): HistorySummary {
  const last = bars[bars.length - 1];
  const first = bars[0];
  if (!last || !first) throw new Error("historySummary needs bars");
  const prev = bars[bars.length - 2] ?? before;
  let peak = first.close;
  let maxDd = 0;
  let up = 0;
  let down = 0;
  let upVolUp = 0;
  let downVolUp = 0;
  bars.forEach((b, i) => {
    peak = Math.max(peak, b.close);
    maxDd = Math.min(maxDd, b.close / peak - 1);
    const p = i > 0 ? bars[i - 1] : before;
    if (!p) return;
    if (b.close > p.close) up++;
    else if (b.close < p.close) down++;
    if (b.volume > p.volume && b.close > p.close) upVolUp++;
    if (b.volume > p.volume && b.close < p.close) downVolUp++;
  });
  const vol = bars.map((b) => b.volume);
  const last20 = vol.slice(-20);
  const prior20 = vol.slice(-40, -20);
  const base = bars[bars.length - 21];
  return {
    latestDate: last.date,
    latestClose: last.close,
    latestPctChg: prev ? pctChange(prev.close, last.close) : null,
    periodReturnPct: pctChange(before?.close ?? first.close, last.close),
    recent20dReturnPct: base ? pctChange(base.close, last.close) : null,
    latestVolumeRatio20d: orNull(last.volume / mean(vol.slice(-21, -1))),
    recent20dVolumeVsPrior: prior20.length === 20 ? orNull(mean(last20) / mean(prior20)) : null,
    maxDrawdownPct: Math.round(maxDd * 10000) / 100,
    upDays: up,
    downDays: down,
    priceUpVolumeUpDays: upVolUp,
    priceDownVolumeUpDays: downVolUp,
  };
}

/** Breadth per day for the last `days` days of a universe (dates aligned by position from the end). */
export function breadthSeries(
  universe: readonly { bars: readonly Bar[] }[],
  days: number,
): (BreadthDay & { date: string; downRatio: number; median: number; n: number })[] {
  const out: (BreadthDay & { date: string; downRatio: number; median: number; n: number })[] = [];
  const longest = universe.reduce((m, u) => (u.bars.length > m.length ? u.bars : m), [] as readonly Bar[]);
  for (let k = days - 1; k >= 0; k--) {
    const date = longest[longest.length - 1 - k]?.date;
    if (!date) continue;
    let above = 0;
    let n = 0;
    let upN = 0;
    let downN = 0;
    const changes: number[] = [];
    for (const u of universe) {
      const i = u.bars.findLastIndex((b) => b.date === date);
      if (i < 20) continue;
      const cur = u.bars[i];
      const prev = u.bars[i - 1];
      if (!cur || !prev) continue;
      let s = 0;
      for (let j = i - 19; j <= i; j++) s += u.bars[j]?.close ?? 0;
      n++;
      if (cur.close >= s / 20) above++;
      const ch = cur.close / prev.close - 1;
      changes.push(ch);
      if (ch > 0) upN++;
      else if (ch < 0) downN++;
    }
    if (n === 0) continue;
    changes.sort((a, b) => a - b);
    out.push({
      date,
      aboveMa20: (100 * above) / n,
      upRatio: (100 * upN) / n,
      downRatio: (100 * downN) / n,
      median: 100 * (changes[Math.floor(changes.length / 2)] ?? 0),
      n,
    });
  }
  return out;
}

/** The latest day of a breadth series as the tools report it. */
export function latestBreadth(series: ReturnType<typeof breadthSeries>): Breadth | null {
  const b = series[series.length - 1];
  if (!b) return null;
  const r = (x: number): number => Math.round(x * 10) / 10;
  return {
    date: b.date,
    symbols: b.n,
    aboveMa20Pct: r(b.aboveMa20),
    upPct: r(b.upRatio ?? 0),
    downPct: r(b.downRatio),
    medianChangePct: Math.round(b.median * 100) / 100,
  };
}

/** Regime reading from index bars, optional small-cap bars and breadth. */
export function regimeReading(
  index: { symbol: SymbolInfo; bars: readonly Bar[] },
  smallCap: readonly Bar[] | undefined,
  breadth: ReturnType<typeof breadthSeries>,
): RegimeReading {
  const r = marketRegime(index.bars, { ...(smallCap ? { smallCap } : {}), ...(breadth.length ? { breadth } : {}) });
  const last = index.bars[index.bars.length - 1];
  return {
    state: r.state,
    structure: r.structure,
    blocksNewEntries: blocksEntries(r.state),
    reasons: r.reasons,
    index: { id: index.symbol.id, name: index.symbol.name, close: last?.close ?? 0, date: last?.date ?? "" },
    breadth: latestBreadth(breadth),
  };
}
