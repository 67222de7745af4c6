/**
 * Renders the offline bundle as idempotent SQL (INSERT OR REPLACE) for `wrangler d1 execute --file`:
 * one statement per row, every statement far below D1's 100 KB statement limit.
 */
import type { SymbolInfo } from "../../contracts/market";
import type { CachedSeries } from "../../ports/market-data";
import { encodeBarChunks } from "../parse/bar-chunks";
import { BUNDLE_LOADED_AT, type OfflineBundle } from "./bundle";

function lit(v: string | number | boolean | null): string {
  if (v === null) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return String(v);
  return `'${v.replaceAll("'", "''")}'`;
}

function row(table: string, values: Record<string, string | number | boolean | null>): string {
  const cols = Object.keys(values);
  return `INSERT OR REPLACE INTO ${table} (${cols.join(", ")}) VALUES (${cols.map((c) => lit(values[c] ?? null)).join(", ")});`;
}

function symbolSql(s: SymbolInfo): string {
  return row("market_symbols", {
    id: s.id,
    market: s.market,
    exchange: s.exchange,
    code: s.code,
    name: s.name,
    pinyin: s.pinyin,
    kind: s.kind,
    board: s.board,
    industry: s.industry,
    status: s.status,
    currency: s.currency,
    simulated: s.simulated,
    updated_at: BUNDLE_LOADED_AT,
  });
}

function seriesSql(s: CachedSeries): string[] {
  const first = s.bars[0];
  const last = s.bars[s.bars.length - 1];
  if (!first || !last) return [];
  return [
    `DELETE FROM market_bar_chunks WHERE symbol_id = ${lit(s.symbolId)};`,
    row("market_series", {
      symbol_id: s.symbolId,
      adjust: s.adjust,
      origin: s.origin,
      first_date: first.date,
      last_date: last.date,
      bar_count: s.bars.length,
      simulated: s.simulated,
      fetched_at: s.fetchedAt,
    }),
    ...encodeBarChunks(s.bars).map((c) =>
      row("market_bar_chunks", { symbol_id: s.symbolId, year: c.year, bars: c.bars }),
    ),
  ];
}

/** The bundle as SQL statements (symbols first, then series). */
export function bundleSql(bundle: OfflineBundle): string[] {
  return [...bundle.symbols.map(symbolSql), ...bundle.series.flatMap(seriesSql)];
}
