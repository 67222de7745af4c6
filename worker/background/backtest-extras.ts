/**
 * What a backtest adds around the engine's replay: resolving a named symbol in the universe, and
 * the benchmark index's NAV over the strategy's NAV dates (so the equity curve has something to be
 * judged against).
 */
import type { Bar } from "../contracts/analysis";
import type { BacktestResult } from "../contracts/backtest";
import type { SymbolInfo } from "../contracts/market";

/** The universe symbol a user named (id, bare code or exact name; case-insensitive), or undefined. */
export function findNamedSymbol(symbols: readonly SymbolInfo[], named: string): SymbolInfo | undefined {
  const q = named.trim().toUpperCase();
  const bare = (id: string) => id.toUpperCase().replace(/^[A-Z]+\./, "");
  return (
    symbols.find((s) => s.id.toUpperCase() === q) ??
    symbols.find((s) => bare(s.id) === bare(q)) ??
    symbols.find((s) => s.name.toUpperCase() === q)
  );
}

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

/** A single-symbol note for the caveats. */
export function symbolCaveat(id: string): string {
  return `Single-symbol backtest of ${id}: the funnel's rules and market regime are applied to the whole universe, but only ${id}'s signals are traded, so the trade count is small and the statistics are noisy.`;
}
