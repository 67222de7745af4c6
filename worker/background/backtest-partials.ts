/**
 * A fanned-out backtest's partials in its coordinator's SQLite: each batch's symbols and its rows per
 * replay day (one row per batch and day, so no value nears the row size limit), and the reduce that
 * feeds the day replay one calendar day at a time — the coordinator never holds more than a day.
 */
import { createDayReplay, type DayReplayPlan } from "../engine/backtest/day-replay";
import type { DayRow } from "../engine/backtest/symbol-days";
import type { BacktestResult } from "../contracts/backtest";
import type { SymbolMeta } from "../engine/screen/symbol-features";
import { withBenchmark } from "./backtest-extras";
import { indexOfUniverse } from "./universe";

/** One replay day of a batch: symbols past warm-up, how many above MA20, the L1 rows (local symbol numbers). */
export interface BacktestDay {
  k: number;
  eligible: number;
  above: number;
  rows: DayRow[];
}

/** What a backtest batch hands its coordinator. */
export interface BacktestBatchPart {
  /** The batch's symbols with enough history, in universe order (row symbol numbers index these). */
  metas: SymbolMeta[];
  days: BacktestDay[];
}

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

/** Replays the portfolio over the stored days (batches in order, so rows keep universe order). */
export function replayStoredDays(sql: SqlStorage, plan: DayReplayPlan): BacktestResult {
  const metas: SymbolMeta[] = [];
  const offset = new Map<number, number>();
  for (const row of sql.exec<{ batch: number; data: string }>("SELECT batch, data FROM bt_symbols ORDER BY batch")) {
    offset.set(row.batch, metas.length);
    metas.push(...(JSON.parse(row.data) as SymbolMeta[]));
  }
  const metaOf = (sym: number): SymbolMeta => {
    const m = metas[sym];
    if (!m) throw new Error(`no symbol ${sym} in the backtest partials`);
    return m;
  };
  const replay = createDayReplay(plan);
  for (let k = plan.startK; k <= plan.endK; k++) {
    let eligible = 0;
    let above = 0;
    const rows: DayRow[] = [];
    for (const r of sql.exec<{ batch: number; data: string }>(
      "SELECT batch, data FROM bt_days WHERE k = ? ORDER BY batch",
      k,
    )) {
      const [e, a, batchRows] = JSON.parse(r.data) as [number, number, DayRow[]];
      const base = offset.get(r.batch) ?? 0;
      eligible += e;
      above += a;
      for (const row of batchRows) {
        row[0] += base;
        rows.push(row);
      }
    }
    replay.day(k, eligible, above, rows, metaOf);
  }
  return withBenchmark(replay.result(metas.length), indexOfUniverse(plan.label), plan.index);
}
