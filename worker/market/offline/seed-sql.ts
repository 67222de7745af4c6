/**
 * Renders the offline bundle as idempotent SQL for `wrangler d1 execute --file`: one `DELETE` of the
 * bundled symbols' chunks, then multi-row `INSERT OR REPLACE` statements per table, each packed up to
 * `STATEMENT_BYTES` (below D1's 100 KB statement limit). Few statements keep the seed load fast: the
 * load's cost is per statement far more than per byte.
 */
import type { SymbolInfo } from "../../contracts/market";
import type { CachedSeries } from "../../ports/market-data";
import { encodeBarChunks } from "../../lib/bar-chunks";
import { BUNDLE_LOADED_AT, type OfflineBundle } from "./bundle";

/** Largest statement written (bytes of SQL text); D1 refuses statements over 100 KB. */
export const STATEMENT_BYTES = 90_000;

type Value = string | number | boolean | null;

function lit(v: Value): string {
  if (v === null) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return String(v);
  return `'${v.replaceAll("'", "''")}'`;
}

/** Packs rows of one table into as few `INSERT OR REPLACE` statements as the size limit allows. */
function inserts(table: string, rows: readonly Record<string, Value>[], maxBytes: number): string[] {
  const first = rows[0];
  if (!first) return [];
  const cols = Object.keys(first);
  const head = `INSERT OR REPLACE INTO ${table} (${cols.join(", ")}) VALUES\n`;
  const out: string[] = [];
  let tuples: string[] = [];
  let size = head.length;
  for (const r of rows) {
    const tuple = `(${cols.map((c) => lit(r[c] ?? null)).join(", ")})`;
    if (tuples.length > 0 && size + tuple.length + 2 > maxBytes) {
      out.push(`${head}${tuples.join(",\n")};`);
      tuples = [];
      size = head.length;
    }
    tuples.push(tuple);
    size += tuple.length + 2;
  }
  if (tuples.length > 0) out.push(`${head}${tuples.join(",\n")};`);
  return out;
}

function symbolRow(s: SymbolInfo): Record<string, Value> {
  return {
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
  };
}

function seriesRow(s: CachedSeries): Record<string, Value> | null {
  const first = s.bars[0];
  const last = s.bars[s.bars.length - 1];
  if (!first || !last) return null;
  return {
    symbol_id: s.symbolId,
    adjust: s.adjust,
    origin: s.origin,
    first_date: first.date,
    last_date: last.date,
    bar_count: s.bars.length,
    simulated: s.simulated,
    fetched_at: s.fetchedAt,
  };
}

/** The bundle as SQL statements (symbols, then series, then their yearly chunks). */
export function bundleSql(bundle: OfflineBundle, maxBytes = STATEMENT_BYTES): string[] {
  const series = bundle.series.filter((s) => s.bars.length > 0);
  const ids = series.map((s) => lit(s.symbolId));
  const deletes: string[] = [];
  for (let i = 0; i < ids.length; i += 500)
    deletes.push(`DELETE FROM market_bar_chunks WHERE symbol_id IN (${ids.slice(i, i + 500).join(", ")});`);
  return [
    ...inserts("market_symbols", bundle.symbols.map(symbolRow), maxBytes),
    ...deletes,
    ...inserts(
      "market_series",
      series.map(seriesRow).filter((r): r is Record<string, Value> => r !== null),
      maxBytes,
    ),
    ...inserts(
      "market_bar_chunks",
      series.flatMap((s) =>
        encodeBarChunks(s.bars).map((c) => ({ symbol_id: s.symbolId, year: c.year, bars: c.bars })),
      ),
      maxBytes,
    ),
  ];
}
