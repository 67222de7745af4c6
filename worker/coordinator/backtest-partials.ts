/**
 * A fanned-out backtest's partials in its coordinator's SQLite (edge): each batch's symbols and its
 * rows per replay day (one row per batch and day, so no value nears the row size limit), read back
 * one calendar day at a time for the replay in background/finish-fan-out.ts.
 */
import type { BacktestBatchPart } from "../background/coordinator-port";
import type { StoredBacktestDays } from "../background/finish-fan-out";
import type { DayRow } from "../engine/backtest/symbol-days";
import type { SymbolMeta } from "../engine/screen/symbol-features";

/** Creates the tables (idempotent). */
export function createBacktestTables(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS bt_symbols (batch INTEGER PRIMARY KEY, data TEXT NOT NULL); CREATE TABLE IF NOT EXISTS bt_days (batch INTEGER NOT NULL, k INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (k, batch));",
  );
}

/** Stores a batch's part (call inside the same synchronous step as marking the batch received). */
export function storeBacktestPart(sql: SqlStorage, batch: number, part: BacktestBatchPart): void {
  sql.exec("INSERT OR REPLACE INTO bt_symbols (batch, data) VALUES (?, ?)", batch, JSON.stringify(part.metas));
  for (const day of part.days)
    sql.exec(
      "INSERT OR REPLACE INTO bt_days (batch, k, data) VALUES (?, ?, ?)",
      batch,
      day.k,
      JSON.stringify([day.eligible, day.above, day.rows]),
    );
}

/** The stored days, read lazily (batches in order, so rows keep universe order). */
export function storedBacktestDays(sql: SqlStorage): StoredBacktestDays {
  return {
    *symbols() {
      for (const row of sql.exec<{ batch: number; data: string }>("SELECT batch, data FROM bt_symbols ORDER BY batch"))
        yield { batch: row.batch, metas: JSON.parse(row.data) as SymbolMeta[] };
    },
    *day(k) {
      for (const r of sql.exec<{ batch: number; data: string }>(
        "SELECT batch, data FROM bt_days WHERE k = ? ORDER BY batch",
        k,
      )) {
        const [eligible, above, rows] = JSON.parse(r.data) as [number, number, DayRow[]];
        yield { batch: r.batch, eligible, above, rows };
      }
    },
  };
}
