/**
 * The market sync's status reads over D1 (D1SyncStore delegates here): coverage against the latest
 * trading day, the failure list, the synced members, their common last date and the store's size.
 */
import { coverageStatement, type SyncCoverage, type SyncFailure } from "../contracts/market-sync";

export async function coverage(d1: D1Database, market: "CN" | "US", asOf: string | null): Promise<SyncCoverage> {
  const r = await d1
    .prepare(
      `SELECT count(*) AS universe,
         sum(CASE WHEN s.symbol_id IS NOT NULL THEN 1 ELSE 0 END) AS withBars,
         sum(CASE WHEN s.last_date >= ?2 THEN 1 ELSE 0 END) AS current
       FROM market_symbols m LEFT JOIN market_series s ON s.symbol_id = m.id
       WHERE m.market = ?1 AND m.kind = 'stock' AND m.simulated = 0 AND m.status != 'delisted'
         AND m.last_seen IS NOT NULL`,
    )
    .bind(market, asOf ?? "9999-12-31")
    .first<{ universe: number; withBars: number | null; current: number | null }>();
  const universe = r?.universe ?? 0;
  const current = r?.current ?? 0;
  return {
    market,
    universe,
    current,
    withBars: r?.withBars ?? 0,
    pct: universe === 0 ? 0 : Math.round((current / universe) * 1000) / 10,
    asOf,
    statement: coverageStatement(current, universe, asOf),
  };
}

export async function failures(
  d1: D1Database,
  limit: number,
  market: "CN" | "US",
): Promise<{ list: SyncFailure[]; total: number }> {
  const where = market === "US" ? `symbol_id LIKE 'US.%'` : `symbol_id NOT LIKE 'US.%'`;
  const [rows, count] = await d1.batch<unknown>([
    d1
      .prepare(
        `SELECT symbol_id, reason, failures, at FROM market_sync_failures WHERE ${where}
         ORDER BY at DESC, symbol_id LIMIT ?1`,
      )
      .bind(limit),
    d1.prepare(`SELECT count(*) AS n FROM market_sync_failures WHERE ${where}`),
  ]);
  const list = (rows?.results ?? []) as { symbol_id: string; reason: string; failures: number; at: number }[];
  const total = ((count?.results ?? []) as { n: number }[])[0]?.n ?? 0;
  return {
    list: list.map((f) => ({
      symbol: f.symbol_id,
      reason: f.reason,
      failures: f.failures,
      at: new Date(f.at).toISOString(),
    })),
    total,
  };
}

export async function members(d1: D1Database, market: "CN" | "US"): Promise<Set<string>> {
  const rows = await d1
    .prepare(
      `SELECT id FROM market_symbols
       WHERE market = ?1 AND simulated = 0 AND last_seen IS NOT NULL AND status != 'delisted'`,
    )
    .bind(market)
    .all<{ id: string }>();
  return new Set(rows.results.map((r) => r.id));
}

export async function commonLastDate(d1: D1Database, market: "CN" | "US"): Promise<string | null> {
  const r = await d1
    .prepare(
      `SELECT s.last_date AS d, count(*) AS n FROM market_series s JOIN market_symbols m ON m.id = s.symbol_id
       WHERE m.market = ?1 AND m.kind = 'stock' AND m.simulated = 0 AND m.last_seen IS NOT NULL
         AND m.status != 'delisted'
       GROUP BY s.last_date ORDER BY n DESC, s.last_date DESC LIMIT 1`,
    )
    .bind(market)
    .first<{ d: string }>();
  return r?.d ?? null;
}

export async function storage(d1: D1Database, market: "CN" | "US"): Promise<{ symbols: number; bytes: number }> {
  const r = await d1
    .prepare(
      `SELECT count(DISTINCT c.symbol_id) AS symbols, coalesce(sum(length(c.bars) + length(c.symbol_id) + 8), 0) AS bytes
       FROM market_bar_chunks c JOIN market_symbols m ON m.id = c.symbol_id
       WHERE m.market = ?1 AND m.simulated = 0`,
    )
    .bind(market)
    .first<{ symbols: number; bytes: number }>();
  return { symbols: r?.symbols ?? 0, bytes: r?.bytes ?? 0 };
}
