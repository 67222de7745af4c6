/**
 * The backtest replay (PARITY.md §2.5): day by day over the window, the screening funnel as of that
 * day (L1–L4 and priority allocation, ≤ 2 per sector), entries on the next bar, exits by the trade
 * rules, each trade sized by the regime of its signal day; NAV books a trade's return on its exit day.
 */
import type { BacktestInput, BacktestResult, BacktestTrade } from "../../contracts/backtest";
import type { Bar, Market } from "../../contracts/analysis";
import { marketRegime, type RegimeState } from "../market-regime";
import type { EngineParams } from "../params";
import { alignBenchmark } from "../relative-strength";
import { buildSeries, type Series } from "../series";
import { reduceFunnel } from "../screen/reduce-funnel";
import { amountsOf, symbolFeatures, type SymbolFeatures, type SymbolMeta } from "../screen/symbol-features";
import { navStats, tradeStats } from "./metrics";
import { simulateTrade, type TradeRules } from "./simulate-trade";

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

/** Bars of MA200 history a symbol needs before it can signal. */
const WARMUP = 200;

/** What the replay reads. */
export interface ReplayUniverse {
  market: Market;
  /** Label of the universe read (`SIM`, `CN`, `US`). */
  label: string;
  simulated: boolean;
  symbols: { meta: SymbolMeta; bars: readonly Bar[] }[];
  index: readonly Bar[];
  smallCap?: readonly Bar[];
}

/** Progress and cancellation: called every few days; answer false to stop. */
export type Checkpoint = (pct: number, detail: string) => Promise<boolean>;

interface Prepared {
  meta: SymbolMeta;
  s: Series;
  at: Map<string, number>;
  amounts: Float64Array;
  bench: Float64Array;
}

/** Runs the backtest; null when a checkpoint asked to stop. */
export async function replayBacktest(
  u: ReplayUniverse,
  input: BacktestInput,
  params: EngineParams,
  checkpoint: Checkpoint = async () => true,
): Promise<BacktestResult | null> {
  const prepared: Prepared[] = u.symbols
    .filter((x) => x.bars.length > WARMUP)
    .map((x) => {
      const s = buildSeries(x.bars, u.market, params);
      return {
        meta: x.meta,
        s,
        at: new Map(s.date.map((d, i) => [d, i])),
        amounts: amountsOf(x.bars),
        bench: alignBenchmark(s.date, u.index),
      };
    });
  const calendar =
    u.index.length > 0 ? u.index.map((b) => b.date) : [...new Set(prepared.flatMap((p) => p.s.date))].sort();
  const calAt = new Map(calendar.map((d, i) => [d, i]));
  const lastK = calendar.length - 1;
  let endK = lastK;
  if (input.end) while (endK > 0 && (calendar[endK] ?? "") > input.end) endK--;
  let startK = Math.max(WARMUP, endK - 249);
  if (input.start) {
    startK = WARMUP;
    while (startK < endK && (calendar[startK] ?? "") < input.start) startK++;
  }
  const caveats = [
    "Survivorship: the universe is today's symbol list; names delisted during the window are missing.",
    "Look-ahead: sectors and names are as of today, not as of each signal day.",
    "NAV books each trade's return on its exit day with weight = regime sizing / (top_n × hold_days).",
  ];
  if (u.simulated) caveats.unshift("Simulated market: results describe generated data, not a real market.");
  if (startK > endK) caveats.push(`not enough history: signals need ${WARMUP} bars of MA200 warm-up`);

  const rules: TradeRules = {
    exitMode: input.exit_mode,
    holdDays: input.hold_days,
    stopLoss: input.stop_loss_pct / 100,
    takeProfit: input.take_profit_pct === null ? null : input.take_profit_pct / 100,
    trailing: null,
    priority: input.sltp_priority,
    entryPrice: input.entry_price,
    lastIndex: 0,
    limitRules: u.market === "CN",
  };
  const slots = input.top_n * input.hold_days;
  const booked = new Float64Array(calendar.length);
  const trades: BacktestTrade[] = [];
  const heldUntil = new Map<string, string>();
  const breadth: { aboveMa20: number }[] = [];
  let skipped = 0;
  let signalDays = 0;
  for (let k = startK; k <= endK; k++) {
    if ((k - startK) % 10 === 0) {
      const pct = Math.round((100 * (k - startK)) / Math.max(1, endK - startK + 1));
      if (!(await checkpoint(pct, `replaying ${calendar[k] ?? ""}`))) return null;
    }
    const d = calendar[k] ?? "";
    const feats: SymbolFeatures[] = [];
    const byId = new Map<string, Prepared>();
    for (const p of prepared) {
      const t = p.at.get(d);
      if (t === undefined || t < WARMUP) continue;
      byId.set(p.meta.id, p);
      feats.push(
        symbolFeatures(
          p.s,
          t,
          p.meta,
          { market: u.market, params, bench: p.bench, triggerLookback: 1, breadthDays: 1, triggersOnlyForL2: true },
          p.amounts,
        ),
      );
    }
    if (feats.length === 0) continue;
    breadth.push({ aboveMa20: (100 * feats.filter((f) => f.aboveMa20[0]).length) / feats.length });
    const index = u.index.slice(0, k + 1);
    const regime = marketRegime(index, {
      ...(u.smallCap ? { smallCap: u.smallCap.slice(0, k + 1) } : {}),
      breadth: breadth.slice(-10),
    });
    const outcome = reduceFunnel(feats, { limit: input.top_n, regime, maxCandidates: 200 });
    const size = REGIME_SIZING[regime.state];
    if (outcome.candidates.length > 0) signalDays++;
    if (size === 0) continue;
    const perSector = new Map<string, number>();
    let taken = 0;
    for (const c of outcome.candidates) {
      if (taken >= input.top_n) break;
      const held = heldUntil.get(c.code);
      if (held !== undefined && held >= d) continue;
      const sector = c.industry ?? "unclassified";
      if ((perSector.get(sector) ?? 0) >= 2) continue;
      const p = byId.get(c.code);
      const t = p?.at.get(d);
      if (!p || t === undefined) continue;
      const trade = simulateTrade(p.s, t, { ...rules, lastIndex: p.s.n - 1 });
      if (!trade) {
        skipped++;
        continue;
      }
      perSector.set(sector, (perSector.get(sector) ?? 0) + 1);
      taken++;
      const exitDate = p.s.date[trade.exitIndex] ?? d;
      heldUntil.set(c.code, exitDate);
      const w = size / slots;
      const ek = calAt.get(exitDate) ?? lastK;
      booked[ek] = (booked[ek] ?? 0) + w * trade.ret;
      trades.push({
        code: c.code,
        signalDate: d,
        entryDate: p.s.date[trade.entryIndex] ?? "",
        entryPrice: Math.round(trade.entryPrice * 1000) / 1000,
        exitDate,
        exitPrice: Math.round(trade.exitPrice * 1000) / 1000,
        exitReason: trade.exitReason,
        retPct: Math.round(trade.ret * 10000) / 100,
        weight: Math.round(w * 10000) / 10000,
        regime: regime.state,
      });
    }
  }
  const lastExit = trades.reduce((m, t) => Math.max(m, calAt.get(t.exitDate) ?? 0), endK);
  const navDays: { date: string; nav: number }[] = [];
  const benchDays: number[] = [];
  let nav = 1;
  for (let k = startK; k <= lastExit && k <= lastK; k++) {
    nav *= 1 + (booked[k] ?? 0);
    navDays.push({ date: calendar[k] ?? "", nav: Math.round(nav * 10000) / 10000 });
    benchDays.push(u.index[k]?.close ?? Number.NaN);
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
    universe: u.label,
    symbols: prepared.length,
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
