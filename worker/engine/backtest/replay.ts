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
import { clearDayColumns, columnsDay, columnSymbol, dayColumns } from "./day-columns";
import { createDayReplay, replayWindow, tradeRules } from "./day-replay";
import { prepareScratch, prepareSymbol, WARMUP, type BacktestSymbol } from "./symbol-days";

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

/**
 * Symbol-day slots the day columns of one pass hold (88 bytes each, so ≈ 130 MB at most): a pass
 * covers as many days as fit for the universe (a year of 5,300 symbols in one).
 */
const PASS_SLOTS = 1_500_000;

/** Progress and cancellation: called every few days; answer false to stop. */
export type Checkpoint = (pct: number, detail: string) => Promise<boolean>;

function barCount(bars: readonly Bar[] | BarColumns): number {
  return "close" in bars ? bars.close.length : bars.length;
}

function ascending(dates: readonly string[], from = 0, to = dates.length): boolean {
  for (let i = from + 1; i < to; i++) if ((dates[i] ?? "") < (dates[i - 1] ?? "")) return false;
  return true;
}

/**
 * Runs the backtest; null when a checkpoint asked to stop.
 *
 * The days are replayed in passes of as many days as the day columns hold (`PASS_SLOTS`). A pass
 * takes the symbols one at a time: the symbol is prepared into one reused scratch (series, aligned
 * benchmark, rolling windows: nothing allocated per symbol), every day of the pass is answered for
 * it while its columns are in cache, and its L1 passers land in the day columns in universe order;
 * then the pass's days are decided one by one. A symbol is prepared once per pass, never kept.
 * `o.passSlots` overrides `PASS_SLOTS` (the tests' shorter passes; the result is the same).
 */
export async function replayBacktest(
  u: ReplayUniverse,
  input: BacktestInput,
  params: EngineParams,
  checkpoint: Checkpoint = async () => true,
  o: { passSlots?: number } = {},
): Promise<BacktestResult | null> {
  const kept = u.symbols.filter((x) => barCount(x.bars) > WARMUP);
  const datesOf = kept.map((x) => ("close" in x.bars ? x.bars.date : x.bars.map((b) => b.date)));
  const calendar = u.index.length > 0 ? u.index.map((b) => b.date) : [...new Set(datesOf.flat())].sort();
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
  const days = Math.max(0, endK - startK + 1);
  const span = Math.max(1, Math.min(days, Math.floor((o.passSlots ?? PASS_SLOTS) / Math.max(1, kept.length))));
  const cols = dayColumns(
    span,
    kept.map((x) => x.meta),
  );
  const metaOf = (sym: number): SymbolMeta => (kept[sym] as (typeof kept)[number]).meta;
  const uniqueIds = new Set(kept.map((x) => x.meta.id)).size === kept.length;
  const scratch = prepareScratch();
  // Each symbol's bar index on a replayed day (-1: no bar, or still in the warm-up) is found by
  // walking its dates along the calendar, the walk carried from pass to pass; a day the walk does
  // not meet is looked up in a date map (the last of duplicates), which on ascending dates along an
  // ascending calendar can only miss too.
  const walk = new Int32Array(kept.length);
  const calendarAscending = ascending(calendar, startK, endK + 1);
  const sorted = datesOf.map((d) => calendarAscending && ascending(d));
  const dateMaps: (Map<string, number> | undefined)[] = [];
  const lookUp = (sym: number, d: string): number => {
    let map = dateMaps[sym];
    if (!map) {
      map = new Map<string, number>();
      const dates = datesOf[sym] ?? [];
      for (let i = 0; i < dates.length; i++) map.set(dates[i] ?? "", i);
      dateMaps[sym] = map;
    }
    const t = map.get(d);
    return t === undefined || t < WARMUP ? -1 : t;
  };
  const on = new Int32Array(span);
  for (let k0 = startK; k0 <= endK; k0 += span) {
    const k1 = Math.min(endK, k0 + span - 1);
    clearDayColumns(cols);
    let prev: BacktestSymbol | undefined;
    for (let sym = 0; sym < kept.length; sym++) {
      const x = kept[sym];
      const dates = datesOf[sym];
      if (!x || !dates) continue;
      const n = dates.length;
      let t = walk[sym] ?? 0;
      let any = false;
      for (let k = k0; k <= k1; k++) {
        const d = calendar[k] ?? "";
        while (t < n && (dates[t] ?? "") < d) t++;
        let at = -1;
        if (t < n && dates[t] === d) {
          while (t + 1 < n && dates[t + 1] === d) t++; // the last of duplicates, as the date map keeps
          at = t < WARMUP ? -1 : t;
        } else if (!sorted[sym]) at = lookUp(sym, d);
        on[k - k0] = at;
        if (at >= 0) any = true;
      }
      walk[sym] = t;
      if (!any) continue;
      const p = prepareSymbol(x.meta, x.bars, u.market, params, u.index, prev, scratch);
      prev = p;
      const cs = columnSymbol(p, ctx);
      for (let k = k0; k <= k1; k++) {
        const bar = on[k - k0] ?? -1;
        if (bar >= 0) columnsDay(cols, k - k0, sym, cs, bar, u.market);
      }
    }
    for (let k = k0; k <= k1; k++) {
      if ((k - startK) % 10 === 0) {
        const pct = Math.round((100 * (k - startK)) / Math.max(1, days));
        if (!(await checkpoint(pct, `replaying ${calendar[k] ?? ""}`))) return null;
      }
      replay.dayOfColumns(k, cols, k - k0, metaOf, uniqueIds);
    }
  }
  return replay.result(kept.length);
}
