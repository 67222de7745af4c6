/**
 * The cross-sectional half of the backtest (the coordinator's "reduce"): fed one calendar day at a
 * time with the day's breadth counts and L1 rows (in universe order), it decides the regime, runs the
 * funnel's reduce, takes the day's entries (≤ top_n, ≤ 2 per sector, not already held) and books
 * each trade's return on its exit day; `result()` computes the metrics. Holds one day at a time.
 */
import type { Bar, Market } from "../../contracts/analysis";
import type { BacktestInput, BacktestResult, BacktestTrade } from "../../contracts/backtest";
import { marketRegime, type Regime, type RegimeState } from "../market-regime";
import { reduceFunnel } from "../screen/reduce-funnel";
import type { SymbolMeta } from "../screen/symbol-features";
import { navStats, tradeStats } from "./metrics";
import type { TradeRules } from "./simulate-trade";
import { dayCandidates, litOf, slotSymbol, type DayCandidate, type DayColumns } from "./day-columns";
import { featuresOfRow, WARMUP, type DayRow, type TradeRow } from "./symbol-days";

/** Position size by the signal day's regime (PARITY.md §2.5, WyckoffAgent's table; BULL = its RISK_ON). */
export const REGIME_SIZING: Record<RegimeState, number> = {
  NEUTRAL: 1,
  CAUTION: 1,
  BULL: 0.2,
  REPAIR: 0.5,
  REPAIR_CONFIRMED: 0.5,
  RISK_OFF: 0.2,
  CRASH: 0,
};

/** What the replay of days reads besides the rows (JSON-safe: a coordinator stores it). */
export interface DayReplayPlan {
  market: Market;
  label: string;
  simulated: boolean;
  input: BacktestInput;
  /** Trading calendar (the main index's dates). */
  calendar: string[];
  index: Bar[];
  smallCap?: Bar[];
  startK: number;
  endK: number;
  /** Caveats the planner knows (e.g. the live market's sync coverage), listed first. */
  notes?: string[];
}

/** The replay window on a calendar: the last 250 days up to `end`, or from `start`. */
export function replayWindow(calendar: readonly string[], input: BacktestInput): { startK: number; endK: number } {
  let endK = calendar.length - 1;
  if (input.end) while (endK > 0 && (calendar[endK] ?? "") > input.end) endK--;
  let startK = Math.max(WARMUP, endK - 249);
  if (input.start) {
    startK = WARMUP;
    while (startK < endK && (calendar[startK] ?? "") < input.start) startK++;
  }
  return { startK, endK };
}

/** Trade rules of an input (lastIndex is set per symbol). */
export function tradeRules(input: BacktestInput, market: Market): TradeRules {
  return {
    exitMode: input.exit_mode,
    holdDays: input.hold_days,
    stopLoss: input.stop_loss_pct / 100,
    takeProfit: input.take_profit_pct === null ? null : input.take_profit_pct / 100,
    trailing: null,
    priority: input.sltp_priority,
    entryPrice: input.entry_price,
    lastIndex: 0,
    limitRules: market === "CN",
  };
}

/**
 * Records a row's trade by code, the last row of a code winning. Only codes with a trigger (trade
 * ≠ 0) are stored, plus a later trigger-less row overriding one: a code absent from the map reads as
 * 0, so lookups answer as a map of every row would, with a few entries a day instead of thousands.
 */
function noteTrade(map: Map<string, TradeRow | null | 0>, code: string, trade: TradeRow | null | 0): void {
  if (trade !== 0 || map.has(code)) map.set(code, trade);
}

/** Most candidates of a day's reduce the allocation walks. */
const MAX_CANDIDATES = 200;

/** The portfolio replay over days fed in calendar order. */
export function createDayReplay(plan: DayReplayPlan) {
  const { calendar, input } = plan;
  const calAt = new Map(calendar.map((d, i) => [d, i]));
  const lastK = calendar.length - 1;
  const slots = input.top_n * input.hold_days;
  const booked = new Float64Array(calendar.length);
  const trades: BacktestTrade[] = [];
  const heldUntil = new Map<string, string>();
  const breadth: { aboveMa20: number }[] = [];
  let skipped = 0;
  let signalDays = 0;

  /** Day k: `eligible` symbols past warm-up, `above` of them over MA20, the L1 rows in universe order. */
  function day(
    k: number,
    eligible: number,
    above: number,
    rows: readonly DayRow[],
    metaOf: (sym: number) => SymbolMeta,
  ) {
    if (eligible === 0) return;
    const d = calendar[k] ?? "";
    const tradeOf = new Map<string, TradeRow | null | 0>();
    const feats = rows.map((r) => {
      const meta = metaOf(r[0]);
      noteTrade(tradeOf, meta.id, r[14]);
      return featuresOfRow(r, meta, d);
    });
    decide(
      k,
      eligible,
      above,
      (regime) => reduceFunnel(feats, { limit: input.top_n, regime, maxCandidates: MAX_CANDIDATES }).candidates,
      (c) => tradeOf.get(c.code),
    );
  }

  /**
   * Day k of a block of columns (the single-call path): the reduce's candidates found on the
   * columns (day-columns.ts), the same decision as `day` on the day's rows. `uniqueIds`: no two
   * symbols of the universe share an id, so a candidate's trade is its own slot's; otherwise trades
   * are looked up by id over the day's passers, the last one winning, as `day` does.
   */
  function dayOfColumns(k: number, c: DayColumns, d: number, metaOf: (sym: number) => SymbolMeta, uniqueIds: boolean) {
    const eligible = c.eligible[d] ?? 0;
    if (eligible === 0) return;
    const candidates = dayCandidates(c, d, metaOf, MAX_CANDIDATES, uniqueIds);
    let tradeOf: (x: DayCandidate) => TradeRow | null | 0 | undefined;
    if (uniqueIds) tradeOf = (x) => litOf(c, x.slot)?.trade;
    else {
      const map = new Map<string, TradeRow | null | 0>();
      const base = d * c.cap;
      for (let i = 0; i < (c.count[d] ?? 0); i++) {
        const lit = litOf(c, base + i);
        noteTrade(map, metaOf(slotSymbol(c, base + i)).id, lit ? lit.trade : 0);
      }
      tradeOf = (x) => map.get(x.code);
    }
    decide(k, eligible, c.above[d] ?? 0, () => candidates, tradeOf);
  }

  function decide<C extends { code: string; industry: string | null }>(
    k: number,
    eligible: number,
    above: number,
    candidatesOf: (regime: Regime) => readonly C[],
    tradeOf: (c: C) => TradeRow | null | 0 | undefined,
  ) {
    const d = calendar[k] ?? "";
    breadth.push({ aboveMa20: (100 * above) / eligible });
    const regime = marketRegime(plan.index.slice(0, k + 1), {
      ...(plan.smallCap ? { smallCap: plan.smallCap.slice(0, k + 1) } : {}),
      breadth: breadth.slice(-10),
    });
    const candidates = candidatesOf(regime);
    if (candidates.length > 0) signalDays++;
    const size = REGIME_SIZING[regime.state];
    if (size === 0) return;
    const perSector = new Map<string, number>();
    let taken = 0;
    for (const c of candidates) {
      if (taken >= input.top_n) break;
      const held = heldUntil.get(c.code);
      if (held !== undefined && held >= d) continue;
      const sector = c.industry ?? "unclassified";
      if ((perSector.get(sector) ?? 0) >= 2) continue;
      const trade = tradeOf(c);
      if (trade === undefined || trade === 0) continue;
      if (trade === null) {
        skipped++;
        continue;
      }
      const [entryDate, entryPrice, exitDate, exitPrice, exitReason, ret] = trade;
      perSector.set(sector, (perSector.get(sector) ?? 0) + 1);
      taken++;
      heldUntil.set(c.code, exitDate);
      const w = size / slots;
      const ek = calAt.get(exitDate) ?? lastK;
      booked[ek] = (booked[ek] ?? 0) + w * ret;
      trades.push({
        code: c.code,
        signalDate: d,
        entryDate,
        entryPrice: Math.round(entryPrice * 1000) / 1000,
        exitDate,
        exitPrice: Math.round(exitPrice * 1000) / 1000,
        exitReason,
        retPct: Math.round(ret * 10000) / 100,
        weight: Math.round(w * 10000) / 10000,
        regime: regime.state,
      });
    }
  }

  /** The metrics once every day was fed; `symbols` = symbols with enough history. */
  function result(symbols: number): BacktestResult {
    const { startK, endK } = plan;
    const caveats = [
      "Survivorship: the universe is today's symbol list; names delisted during the window are missing.",
      "Look-ahead: sectors and names are as of today, not as of each signal day.",
      "NAV books each trade's return on its exit day with weight = regime sizing / (top_n × hold_days).",
    ];
    if (plan.simulated) caveats.unshift("Simulated market: results describe generated data, not a real market.");
    if (plan.notes) caveats.unshift(...plan.notes);
    if (startK > endK) caveats.push(`not enough history: signals need ${WARMUP} bars of MA200 warm-up`);
    const lastExit = trades.reduce((m, t) => Math.max(m, calAt.get(t.exitDate) ?? 0), endK);
    const navDays: { date: string; nav: number }[] = [];
    const benchDays: number[] = [];
    let nav = 1;
    for (let k = startK; k <= lastExit && k <= lastK; k++) {
      nav *= 1 + (booked[k] ?? 0);
      navDays.push({ date: calendar[k] ?? "", nav: Math.round(nav * 10000) / 10000 });
      benchDays.push(plan.index[k]?.close ?? Number.NaN);
    }
    const ts = tradeStats(trades.map((t) => t.retPct / 100));
    const ns = navStats(
      navDays.map((x) => x.nav),
      benchDays.every(Number.isFinite) ? benchDays : undefined,
    );
    const step = Math.max(1, Math.ceil(navDays.length / 400));
    return {
      period: `${calendar[startK] ?? "?"}~${calendar[endK] ?? "?"}`,
      hold_days: input.hold_days,
      top_n: input.top_n,
      board: input.board,
      exit_mode: input.exit_mode,
      stop_loss_pct: input.stop_loss_pct,
      take_profit_pct: input.take_profit_pct,
      universe: plan.label,
      symbols,
      signal_days: signalDays,
      trades: ts.trades,
      skipped_unfillable: skipped,
      win_rate_pct: ts.winRatePct,
      avg_ret_pct: ts.avgRetPct,
      median_ret_pct: ts.medianRetPct,
      sharpe_ratio: ns.sharpe,
      max_drawdown_pct: ns.maxDrawdownPct,
      calmar_ratio: ns.calmar,
      information_ratio: ns.informationRatio,
      cvar95_pct: ts.cvar95Pct,
      max_consecutive_losses: ts.maxConsecutiveLosses,
      portfolio_total_ret_pct: ns.totalRetPct,
      portfolio_ann_ret_pct: ns.annRetPct,
      nav: navDays.filter((_, i) => i % step === 0 || i === navDays.length - 1),
      trade_list: trades.slice(-500),
      caveats,
    };
  }

  return { day, dayOfColumns, result };
}
