/**
 * Backtest metrics (PARITY.md §2.5): win rate, mean and median trade return, Sharpe and information
 * ratio of daily NAV returns (annualised with √252), max drawdown, Calmar, CVaR95 of trade returns and
 * the longest losing streak.
 */
import { median } from "../numeric";

/** Trade-level statistics. */
export interface TradeStats {
  trades: number;
  winRatePct: number;
  avgRetPct: number;
  medianRetPct: number;
  cvar95Pct: number;
  maxConsecutiveLosses: number;
}

/** NAV-level statistics. */
export interface NavStats {
  totalRetPct: number;
  annRetPct: number;
  sharpe: number;
  maxDrawdownPct: number;
  calmar: number;
  informationRatio: number | null;
}

const r2 = (x: number): number => (Number.isFinite(x) ? Math.round(x * 100) / 100 : 0);

function meanStd(xs: readonly number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: 0, std: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, std: Math.sqrt(v) };
}

/** Statistics of trade returns (fractions in, percent out). */
export function tradeStats(rets: readonly number[]): TradeStats {
  const n = rets.length;
  if (n === 0)
    return { trades: 0, winRatePct: 0, avgRetPct: 0, medianRetPct: 0, cvar95Pct: 0, maxConsecutiveLosses: 0 };
  const sorted = [...rets].sort((a, b) => a - b);
  const tail = sorted.slice(0, Math.max(1, Math.ceil(n * 0.05)));
  let streak = 0;
  let worst = 0;
  for (const r of rets) {
    streak = r <= 0 ? streak + 1 : 0;
    worst = Math.max(worst, streak);
  }
  return {
    trades: n,
    winRatePct: r2((100 * rets.filter((r) => r > 0).length) / n),
    avgRetPct: r2((100 * rets.reduce((a, b) => a + b, 0)) / n),
    medianRetPct: r2(100 * median(rets)),
    cvar95Pct: r2((100 * tail.reduce((a, b) => a + b, 0)) / tail.length),
    maxConsecutiveLosses: worst,
  };
}

/** Statistics of a daily NAV curve; `bench` = benchmark closes on the same days (for the information ratio). */
export function navStats(nav: readonly number[], bench?: readonly number[]): NavStats {
  const daily: number[] = [];
  for (let i = 1; i < nav.length; i++) daily.push((nav[i] ?? 1) / (nav[i - 1] ?? 1) - 1);
  const { mean, std } = meanStd(daily);
  let peak = Number.NEGATIVE_INFINITY;
  let mdd = 0;
  for (const v of nav) {
    peak = Math.max(peak, v);
    mdd = Math.min(mdd, v / peak - 1);
  }
  const end = nav[nav.length - 1] ?? 1;
  const start = nav[0] ?? 1;
  const total = end / start - 1;
  const ann = daily.length > 0 ? (end / start) ** (252 / daily.length) - 1 : 0;
  let ir: number | null = null;
  if (bench && bench.length === nav.length && bench.length > 2) {
    const excess: number[] = [];
    for (let i = 1; i < bench.length; i++)
      excess.push((daily[i - 1] ?? 0) - ((bench[i] ?? 1) / (bench[i - 1] ?? 1) - 1));
    const e = meanStd(excess);
    ir = e.std > 0 ? r2((e.mean / e.std) * Math.sqrt(252)) : null;
  }
  return {
    totalRetPct: r2(100 * total),
    annRetPct: r2(100 * ann),
    sharpe: std > 0 ? r2((mean / std) * Math.sqrt(252)) : 0,
    maxDrawdownPct: r2(100 * mdd),
    calmar: mdd < 0 ? r2(ann / -mdd) : 0,
    informationRatio: ir,
  };
}
