/**
 * The market sync's universe-list writes over D1 (D1SyncStore delegates here): the CN list and the US
 * list upserted a page per statement (one JSON array read with `json_each`), then symbols the list no
 * longer has marked delisted.
 */
import type { UniverseRow, UsListEntry } from "../ports/market-sync";

/** List rows per bulk upsert statement (keeps each statement far below D1's 100 KB statement size). */
const UPSERT_ROWS = 200;

export async function upsertUniverse(
  d1: D1Database,
  rows: readonly UniverseRow[],
  seenOn: string,
  now: number,
): Promise<void> {
  const stmts: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += UPSERT_ROWS) {
    const json = JSON.stringify(
      rows.slice(i, i + UPSERT_ROWS).map((r) => ({
        id: r.id,
        exchange: r.exchange,
        code: r.code,
        name: r.name,
        board: r.board,
        industry: r.industry,
        status: r.bar ? "listed" : "suspended",
        st: r.st ? 1 : 0,
        listedOn: r.listedOn,
        totalCap: r.totalCap,
        floatCap: r.floatCap,
      })),
    );
    stmts.push(
      d1
        .prepare(
          `INSERT INTO market_symbols (id, market, exchange, code, name, pinyin, kind, board, industry, status,
             currency, simulated, updated_at, st, listed_on, total_cap, float_cap, last_seen)
           SELECT json_extract(j.value, '$.id'), 'CN', json_extract(j.value, '$.exchange'),
             json_extract(j.value, '$.code'), json_extract(j.value, '$.name'), '', 'stock',
             json_extract(j.value, '$.board'), json_extract(j.value, '$.industry'),
             json_extract(j.value, '$.status'), 'CNY', 0, ?2, json_extract(j.value, '$.st'),
             json_extract(j.value, '$.listedOn'), json_extract(j.value, '$.totalCap'),
             json_extract(j.value, '$.floatCap'), ?3
           FROM json_each(?1) AS j WHERE true
           ON CONFLICT(id) DO UPDATE SET
             name = excluded.name, board = excluded.board,
             industry = coalesce(excluded.industry, market_symbols.industry),
             status = excluded.status, st = excluded.st,
             listed_on = coalesce(excluded.listed_on, market_symbols.listed_on),
             total_cap = excluded.total_cap, float_cap = excluded.float_cap,
             last_seen = excluded.last_seen, updated_at = excluded.updated_at`,
        )
        .bind(json, now, seenOn),
    );
  }
  if (stmts.length > 0) await d1.batch(stmts);
}

export async function upsertUsUniverse(
  d1: D1Database,
  entries: readonly UsListEntry[],
  seenOn: string,
  now: number,
): Promise<void> {
  const stmts: D1PreparedStatement[] = [];
  for (let i = 0; i < entries.length; i += UPSERT_ROWS) {
    const json = JSON.stringify(
      entries.slice(i, i + UPSERT_ROWS).map((e) => ({ t: e.ticker, n: e.name ?? e.ticker, i: e.industry })),
    );
    // Names: Yahoo's (recordListing) win over the list's once resolved; the list names new symbols.
    stmts.push(
      d1
        .prepare(
          `INSERT INTO market_symbols (id, market, exchange, code, name, pinyin, kind, board, industry, status,
             currency, simulated, updated_at, st, last_seen)
           SELECT 'US.' || json_extract(j.value, '$.t'), 'US', 'US', json_extract(j.value, '$.t'),
             json_extract(j.value, '$.n'), '', 'stock', NULL, json_extract(j.value, '$.i'), 'listed', 'USD', 0,
             ?2, 0, ?3
           FROM json_each(?1) AS j WHERE true
           ON CONFLICT(id) DO UPDATE SET
             name = CASE WHEN market_symbols.name = market_symbols.code THEN excluded.name ELSE market_symbols.name END,
             industry = coalesce(excluded.industry, market_symbols.industry),
             status = 'listed', last_seen = excluded.last_seen, updated_at = excluded.updated_at`,
        )
        .bind(json, now, seenOn),
    );
  }
  if (stmts.length > 0) await d1.batch(stmts);
}

export async function markUnseenDelisted(
  d1: D1Database,
  market: "CN" | "US",
  seenOn: string,
  now: number,
): Promise<number> {
  const r = await d1
    .prepare(
      `UPDATE market_symbols SET status = 'delisted', updated_at = ?3
       WHERE market = ?1 AND kind = 'stock' AND simulated = 0 AND status != 'delisted'
         AND (last_seen IS NULL OR last_seen < ?2)`,
    )
    .bind(market, seenOn, now)
    .run();
  return r.meta.changes ?? 0;
}

export async function markOffUsList(d1: D1Database, tickers: readonly string[], now: number): Promise<number> {
  // Only symbols an earlier list had (last_seen set): a ticker analyzed outside it stays as it is.
  const r = await d1
    .prepare(
      `UPDATE market_symbols SET status = 'delisted', updated_at = ?2
       WHERE market = 'US' AND kind IN ('stock', 'etf') AND simulated = 0 AND status != 'delisted'
         AND last_seen IS NOT NULL AND code NOT IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(tickers), now)
    .run();
  return r.meta.changes ?? 0;
}
