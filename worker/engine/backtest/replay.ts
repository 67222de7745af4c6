/**
 * The backtest replay (PARITY.md §2.5): day by day over the window, the screening funnel as of that
 * day (L1–L4 and priority allocation, ≤ 2 per sector), entries on the next bar, exits by the trade
 * rules, each trade sized by the regime of its signal day; NAV books a trade's return on its exit day.
 * This is the single-call path (the universe in memory): each symbol is prepared once (series,
 * rolling windows) and every day is answered by index (symbol-days.ts); the portfolio replay is
 * day-replay.ts, shared with the fan-out path, which maps symbol batches in separate calls.
 */
import type { BacktestInput, BacktestResult } from "../../contracts/backtest";
import type { Bar, Market } from "../../contracts/analysis";
import type { EngineParams } from "../params";
import type { SymbolMeta } from "../screen/symbol-features";
import type { BarColumns } from "../series";
import { addSymbolDay, clearDayColumns, dayColumns } from "./day-columns";
import { createDayReplay, replayWindow, tradeRules } from "./day-replay";
import { dayIndex, prepareSymbol, symbolDayFeatures, WARMUP, type BacktestSymbol } from "./symbol-days";

export { REGIME_SIZING } from "./day-replay";

/** What the replay reads. */
export interface ReplayUniverse {
  market: Market;
  /** Label of the universe read (`SIM`, `CN`, `US`). */
  label: string;
  simulated: boolean;
  symbols: { meta: SymbolMeta; bars: readonly Bar[] | BarColumns }[];
  index: readonly Bar[];
  smallCap?: readonly Bar[];
}

/** Replay days answered together per symbol (see the loop below). */
const DAY_BLOCK = 10;

/** Progress and cancellation: called every few days; answer false to stop. */
export type Checkpoint = (pct: number, detail: string) => Promise<boolean>;

function barCount(bars: readonly Bar[] | BarColumns): number {
  return "close" in bars ? bars.close.length : bars.length;
}

/** Runs the backtest; null when a checkpoint asked to stop. */
export async function replayBacktest(
  u: ReplayUniverse,
  input: BacktestInput,
  params: EngineParams,
  checkpoint: Checkpoint = async () => true,
): Promise<BacktestResult | null> {
  const prepared: BacktestSymbol[] = [];
  for (const x of u.symbols)
    if (barCount(x.bars) > WARMUP)
      prepared.push(prepareSymbol(x.meta, x.bars, u.market, params, u.index, prepared[prepared.length - 1]));
  const calendar =
    u.index.length > 0 ? u.index.map((b) => b.date) : [...new Set(prepared.flatMap((p) => p.s.date))].sort();
  const { startK, endK } = replayWindow(calendar, input);
  const replay = createDayReplay({
    market: u.market,
    label: u.label,
    simulated: u.simulated,
    input,
    calendar,
    index: [...u.index],
    ...(u.smallCap ? { smallCap: [...u.smallCap] } : {}),
    startK,
    endK,
  });
  const ctx = { market: u.market, params, rules: tradeRules(input, u.market) };
  // Each symbol's bar index on every replayed day (-1: no bar, or still in the warm-up), found once
  // by walking its ascending dates along the calendar; a day the walk does not meet is looked up.
  const barOn = prepared.map((p) => {
    const out = new Int32Array(Math.max(0, endK - startK + 1)).fill(-1);
    const dates = p.s.date;
    let t = 0;
    for (let k = startK; k <= endK; k++) {
      const d = calendar[k] ?? "";
      while (t < p.s.n && (dates[t] ?? "") < d) t++;
      if (t < p.s.n && dates[t] === d) {
        while (t + 1 < p.s.n && dates[t + 1] === d) t++; // the last of duplicates, as the date map keeps
        out[k - startK] = t < WARMUP ? -1 : t;
      } else out[k - startK] = dayIndex(p, d) ?? -1;
    }
    return out;
  });
  // Days are answered in blocks, symbol by symbol within a block: each symbol's columns are read
  // for several consecutive days while they are in cache, instead of once a day across the whole
  // market. Each day's L1 passers land in universe order in the block's columns (day-columns.ts,
  // allocated once and refilled); the decisions run day by day.
  const cols = dayColumns(DAY_BLOCK, prepared.length);
  const metaOf = (sym: number): SymbolMeta => (prepared[sym] as BacktestSymbol).meta;
  const uniqueIds = new Set(prepared.map((p) => p.meta.id)).size === prepared.length;
  for (let k0 = startK; k0 <= endK; k0 += DAY_BLOCK) {
    const k1 = Math.min(endK, k0 + DAY_BLOCK - 1);
    clearDayColumns(cols);
    for (let sym = 0; sym < prepared.length; sym++) {
      const p = prepared[sym];
      const on = barOn[sym];
      if (!p || !on) continue;
      for (let k = k0; k <= k1; k++) {
        const t = on[k - startK] ?? -1;
        if (t < 0) continue;
        const answer = symbolDayFeatures(p, t, ctx);
        addSymbolDay(cols, k - k0, sym, answer.above, answer.f, answer.trade);
      }
    }
    for (let k = k0; k <= k1; k++) {
      if ((k - startK) % 10 === 0) {
        const pct = Math.round((100 * (k - startK)) / Math.max(1, endK - startK + 1));
        if (!(await checkpoint(pct, `replaying ${calendar[k] ?? ""}`))) return null;
      }
      replay.dayOfColumns(k, cols, k - k0, metaOf, uniqueIds);
    }
  }
  return replay.result(prepared.length);
}
