/** Numbers of the status line and the usage view: token counts and US-dollar costs. Pure. */

/** A token count: `12.3k` from ten thousand up, grouped digits below. */
export function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString("en");
}

/** A cost in US dollars with enough digits to be non-zero for small sums (`$0.0042`, `$1.25`). */
export function formatUsd(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return "$0";
  if (n >= 100) return `$${n.toFixed(0)}`;
  if (n >= 1) return `$${n.toFixed(2)}`;
  if (n >= 0.01) return `$${n.toFixed(3)}`;
  if (n < 0.000_001) return "<$0.000001";
  return `$${n.toPrecision(2)}`;
}
