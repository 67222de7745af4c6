/**
 * What a backtest adds around the engine's replay: the benchmark index's NAV over the strategy's NAV
 * dates, so the equity curve has something to be judged against.
 */
import type { Bar } from "../contracts/analysis";
import type { BacktestResult } from "../contracts/backtest";

/** The result with the benchmark's NAV on the strategy's NAV dates (bars oldest first). */
export function withBenchmark(result: BacktestResult, code: string, index: readonly Bar[]): BacktestResult {
  if (index.length === 0 || result.nav.length === 0) return result;
  const closeOn = new Map(index.map((b) => [b.date, b.close]));
  let last: number | undefined;
  let base: number | undefined;
  const nav: { date: string; nav: number }[] = [];
  for (const point of result.nav) {
    last = closeOn.get(point.date) ?? last;
    if (last === undefined) continue;
    base ??= last;
    nav.push({ date: point.date, nav: Math.round((last / base) * 10_000) / 10_000 });
  }
  return nav.length > 0 ? { ...result, benchmark: code, benchmark_nav: nav } : result;
}
