/**
 * D1SyncStore: the market sync's runs, batches and failures, and its bulk writes into the market
 * cache's tables. Bulk statements bind one JSON array and read it with `json_each`, so a page of the
 * list is one statement (D1 allows at most 100 bound parameters per statement and 1,000 queries per
 * invocation; per-row statements for 5,300 symbols would exceed both). The universe-list writes are
 * in market-universe-writes.ts, the status reads in market-sync-status.ts.
 */
import type { Bar } from "../contracts/analysis";
import { type SyncCoverage, type SyncFailure } from "../contracts/market-sync";
import { decodeBarChunk, encodeBarChunks } from "../lib/bar-chunks";
import type {
  AppendItem,
  BatchOutcome,
  SeriesHead,
  SyncBatch,
  SyncBatchItems,
  SyncRun,
  SyncStore,
  UniverseRow,
} from "../ports/market-sync";
import type { ProviderListing, SyncedUniverse } from "../ports/market-data";
import type { UsListEntry } from "../ports/market-sync";
import * as statusReads from "./market-sync-status";
import * as universeWrites from "./market-universe-writes";

/** Ids per `IN (…)` read (below D1's parameter cap). */
const SLICE = 90;

interface RunRow {
  id: string;
  market: "CN" | "US";
  status: SyncRun["status"];
  as_of: string | null;
  universe: number;
  delisted: number;
  batches_total: number;
  batches_done: number;
  appended: number;
  fetched: number;
  skipped: number;
  failed: number;
  requests: number;
  list_requests: number;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

const toRun = (r: RunRow): SyncRun => ({
  id: r.id,
  market: r.market,
  status: r.status,
  asOf: r.as_of,
  universe: r.universe,
  delisted: r.delisted,
  batchesTotal: r.batches_total,
  batchesDone: r.batches_done,
  appended: r.appended,
  fetched: r.fetched,
  skipped: r.skipped,
  failed: r.failed,
  requests: r.requests,
  listRequests: r.list_requests,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

const RUN_COLUMNS: Record<keyof Omit<SyncRun, "id" | "market">, string> = {
  status: "status",
  asOf: "as_of",
  universe: "universe",
  delisted: "delisted",
  batchesTotal: "batches_total",
  batchesDone: "batches_done",
  appended: "appended",
  fetched: "fetched",
  skipped: "skipped",
  failed: "failed",
  requests: "requests",
  listRequests: "list_requests",
  error: "error",
  startedAt: "started_at",
  finishedAt: "finished_at",
};

/** Bounded failure text (a provider message can be long). */
const reasonText = (s: string): string => (s.length > 300 ? `${s.slice(0, 297)}...` : s);

/** The sync store over D1. */
export class D1SyncStore implements SyncStore {
  readonly #d1: D1Database;

  constructor(d1: D1Database) {
    this.#d1 = d1;
  }

  async #run(where: string, market: string): Promise<SyncRun | null> {
    const r = await this.#d1
      .prepare(`SELECT * FROM market_sync_runs WHERE market = ?1 ${where} ORDER BY started_at DESC, id DESC LIMIT 1`)
      .bind(market)
      .first<RunRow>();
    return r ? toRun(r) : null;
  }

  runningRun(market: "CN" | "US") {
    return this.#run("AND status = 'running'", market);
  }

  latestRun(market: "CN" | "US") {
    return this.#run("", market);
  }

  async run(id: string): Promise<SyncRun | null> {
    const r = await this.#d1.prepare(`SELECT * FROM market_sync_runs WHERE id = ?1`).bind(id).first<RunRow>();
    return r ? toRun(r) : null;
  }

  lastCompletedRun(market: "CN" | "US") {
    return this.#run("AND status = 'done'", market);
  }

  async createRun(run: SyncRun): Promise<void> {
    await this.#d1
      .prepare(
        `INSERT OR IGNORE INTO market_sync_runs (id, market, status, as_of, started_at) VALUES (?1, ?2, ?3, ?4, ?5)`,
      )
      .bind(run.id, run.market, run.status, run.asOf, run.startedAt)
      .run();
  }

  async updateRun(id: string, patch: Partial<Omit<SyncRun, "id" | "market">>): Promise<void> {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([k], i) => `${RUN_COLUMNS[k as keyof typeof RUN_COLUMNS]} = ?${i + 2}`);
    await this.#d1
      .prepare(`UPDATE market_sync_runs SET ${sets.join(", ")} WHERE id = ?1`)
      .bind(id, ...entries.map(([, v]) => v as string | number | null))
      .run();
  }

  upsertUniverse(rows: readonly UniverseRow[], seenOn: string, now: number): Promise<void> {
    return universeWrites.upsertUniverse(this.#d1, rows, seenOn, now);
  }

  upsertUsUniverse(entries: readonly UsListEntry[], seenOn: string, now: number): Promise<void> {
    return universeWrites.upsertUsUniverse(this.#d1, entries, seenOn, now);
  }

  markUnseenDelisted(market: "CN" | "US", seenOn: string, now: number): Promise<number> {
    return universeWrites.markUnseenDelisted(this.#d1, market, seenOn, now);
  }

  markOffUsList(tickers: readonly string[], now: number): Promise<number> {
    return universeWrites.markOffUsList(this.#d1, tickers, now);
  }

  async seriesHeads(ids: readonly string[]): Promise<Map<string, SeriesHead>> {
    const out = new Map<string, SeriesHead>();
    for (let i = 0; i < ids.length; i += SLICE) {
      const slice = ids.slice(i, i + SLICE);
      const marks = slice.map((_, k) => `?${k + 1}`).join(",");
      // The last close comes from the chunk of the last year: the header field of a v2 chunk (its
      // JSON number text, read by JS), the `c` array's last element of a v1 (JSON) chunk.
      const rows = await this.#d1
        .prepare(
          `SELECT s.symbol_id AS id, s.last_date AS lastDate, s.bar_count AS barCount,
             CASE WHEN substr(c.bars, 1, 3) = '@2|' THEN substr(c.bars, 4, instr(substr(c.bars, 4), '|') - 1)
               ELSE json_extract(c.bars, '$.c[#-1]') END AS lastClose
           FROM market_series s
           LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id AND c.year = CAST(substr(s.last_date, 1, 4) AS INTEGER)
           WHERE s.symbol_id IN (${marks})`,
        )
        .bind(...slice)
        .all<{ id: string; lastDate: string; barCount: number; lastClose: number | string | null }>();
      for (const r of rows.results) {
        const lastClose = typeof r.lastClose === "string" && r.lastClose !== "" ? Number(r.lastClose) : r.lastClose;
        if (typeof lastClose === "number" && Number.isFinite(lastClose))
          out.set(r.id, { lastDate: r.lastDate, barCount: r.barCount, lastClose });
      }
    }
    return out;
  }

  async failedSymbols(): Promise<Set<string>> {
    const rows = await this.#d1.prepare(`SELECT symbol_id FROM market_sync_failures`).all<{ symbol_id: string }>();
    return new Set(rows.results.map((r) => r.symbol_id));
  }

  async addBatches(runId: string, batches: readonly (SyncBatchItems & { batch: number })[], now: number) {
    const stmts = batches.map((b) =>
      this.#d1
        .prepare(
          `INSERT OR IGNORE INTO market_sync_batches (run_id, batch, mode, items, state, updated_at)
           VALUES (?1, ?2, ?3, ?4, 'pending', ?5)`,
        )
        .bind(runId, b.batch, b.mode, JSON.stringify(b.items), now),
    );
    for (let i = 0; i < stmts.length; i += 100) await this.#d1.batch(stmts.slice(i, i + 100));
  }

  async batch(runId: string, batch: number): Promise<SyncBatch | null> {
    const r = await this.#d1
      .prepare(`SELECT mode, items, state FROM market_sync_batches WHERE run_id = ?1 AND batch = ?2`)
      .bind(runId, batch)
      .first<{ mode: "append" | "fetch"; items: string; state: "pending" | "done" }>();
    if (!r) return null;
    const items: unknown = JSON.parse(r.items);
    return r.mode === "append"
      ? { runId, batch, state: r.state, mode: "append", items: items as AppendItem[] }
      : { runId, batch, state: r.state, mode: "fetch", items: items as string[] };
  }

  async pendingBatches(runId: string): Promise<number[]> {
    const rows = await this.#d1
      .prepare(`SELECT batch FROM market_sync_batches WHERE run_id = ?1 AND state = 'pending' ORDER BY batch`)
      .bind(runId)
      .all<{ batch: number }>();
    return rows.results.map((r) => r.batch);
  }

  async appendBars(items: readonly AppendItem[], now: number): Promise<number> {
    let written = 0;
    for (let i = 0; i < items.length; i += SLICE) {
      const slice = items.slice(i, i + SLICE);
      const keys = slice.map((it) => ({ id: it.id, year: Number(it.bar.date.slice(0, 4)) }));
      const rows = await this.#d1
        .prepare(
          `SELECT s.symbol_id AS id, s.first_date AS firstDate, s.bar_count AS barCount, c.bars AS bars
           FROM json_each(?1) AS k
           JOIN market_series s ON s.symbol_id = json_extract(k.value, '$.id')
           LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id AND c.year = json_extract(k.value, '$.year')`,
        )
        .bind(JSON.stringify(keys))
        .all<{ id: string; firstDate: string; barCount: number; bars: string | null }>();
      const found = new Map(rows.results.map((r) => [r.id, r]));
      const chunks: { id: string; year: number; bars: string }[] = [];
      const metas: { id: string; lastDate: string; barCount: number; firstDate: string }[] = [];
      for (const it of slice) {
        const row = found.get(it.id);
        if (!row) continue;
        const year = Number(it.bar.date.slice(0, 4));
        const bars: Bar[] = row.bars ? decodeBarChunk(row.bars) : [];
        const at = bars.findIndex((b) => b.date >= it.bar.date);
        const replaces = at >= 0 && bars[at]?.date === it.bar.date;
        if (at < 0) bars.push(it.bar);
        else if (replaces) bars[at] = it.bar;
        else continue; // a bar older than the chunk's end: not an append (the planner refetches those)
        const [chunk] = encodeBarChunks(bars);
        if (!chunk) continue;
        chunks.push({ id: it.id, year, bars: chunk.bars });
        const last = bars[bars.length - 1];
        metas.push({
          id: it.id,
          lastDate: last?.date ?? it.bar.date,
          barCount: row.barCount + (replaces ? 0 : 1),
          firstDate: row.firstDate,
        });
      }
      if (chunks.length === 0) continue;
      await this.#d1.batch([
        this.#d1
          .prepare(
            `INSERT INTO market_bar_chunks (symbol_id, year, bars)
             SELECT json_extract(j.value, '$.id'), json_extract(j.value, '$.year'), json_extract(j.value, '$.bars')
             FROM json_each(?1) AS j WHERE true
             ON CONFLICT(symbol_id, year) DO UPDATE SET bars = excluded.bars`,
          )
          .bind(JSON.stringify(chunks)),
        this.#d1
          .prepare(
            `UPDATE market_series SET
               last_date = (SELECT json_extract(j.value, '$.lastDate') FROM json_each(?1) AS j WHERE json_extract(j.value, '$.id') = market_series.symbol_id),
               bar_count = (SELECT json_extract(j.value, '$.barCount') FROM json_each(?1) AS j WHERE json_extract(j.value, '$.id') = market_series.symbol_id),
               fetched_at = ?2
             WHERE symbol_id IN (SELECT json_extract(j.value, '$.id') FROM json_each(?1) AS j)`,
          )
          .bind(JSON.stringify(metas), now),
      ]);
      written += chunks.length;
    }
    return written;
  }

  async completeBatch(runId: string, batch: number, o: BatchOutcome, now: number): Promise<SyncRun | null> {
    const failures = o.failures.map((f) => ({ id: f.symbolId, reason: reasonText(f.reason) }));
    const marked = await this.#d1
      .prepare(
        `UPDATE market_sync_batches SET state = 'done', done = ?3, failed = ?4, requests = ?5, updated_at = ?6
         WHERE run_id = ?1 AND batch = ?2 AND state = 'pending'`,
      )
      .bind(runId, batch, o.appended + o.fetched, failures.length, o.requests, now)
      .run();
    if ((marked.meta.changes ?? 0) > 0) {
      await this.#d1.batch([
        // Symbols the provider does not know (a delisted or renamed US ticker) leave the universe.
        this.#d1
          .prepare(
            `UPDATE market_symbols SET status = 'delisted', updated_at = ?2 WHERE id IN (SELECT value FROM json_each(?1))`,
          )
          .bind(JSON.stringify(o.notFound ?? []), now),
        this.#d1
          .prepare(`DELETE FROM market_sync_failures WHERE symbol_id IN (SELECT value FROM json_each(?1))`)
          .bind(JSON.stringify(o.succeeded)),
        this.#d1
          .prepare(
            `INSERT INTO market_sync_failures (symbol_id, run_id, reason, failures, at)
             SELECT json_extract(j.value, '$.id'), ?2, json_extract(j.value, '$.reason'), 1, ?3
             FROM json_each(?1) AS j WHERE true
             ON CONFLICT(symbol_id) DO UPDATE SET run_id = excluded.run_id, reason = excluded.reason,
               failures = market_sync_failures.failures + 1, at = excluded.at`,
          )
          .bind(JSON.stringify(failures), runId, now),
        // Counters from the batches themselves: a redelivered batch cannot count twice.
        this.#d1
          .prepare(
            `UPDATE market_sync_runs SET
               batches_done = (SELECT count(*) FROM market_sync_batches WHERE run_id = ?1 AND state = 'done'),
               appended = (SELECT coalesce(sum(done), 0) FROM market_sync_batches WHERE run_id = ?1 AND state = 'done' AND mode = 'append'),
               fetched = (SELECT coalesce(sum(done), 0) FROM market_sync_batches WHERE run_id = ?1 AND state = 'done' AND mode = 'fetch'),
               failed = (SELECT coalesce(sum(failed), 0) FROM market_sync_batches WHERE run_id = ?1 AND state = 'done'),
               requests = list_requests + (SELECT coalesce(sum(requests), 0) FROM market_sync_batches WHERE run_id = ?1 AND state = 'done')
             WHERE id = ?1`,
          )
          .bind(runId),
      ]);
    }
    return this.run(runId);
  }

  coverage(market: "CN" | "US", asOf: string | null): Promise<SyncCoverage> {
    return statusReads.coverage(this.#d1, market, asOf);
  }

  failures(limit: number, market: "CN" | "US"): Promise<{ list: SyncFailure[]; total: number }> {
    return statusReads.failures(this.#d1, limit, market);
  }

  members(market: "CN" | "US"): Promise<Set<string>> {
    return statusReads.members(this.#d1, market);
  }

  commonLastDate(market: "CN" | "US"): Promise<string | null> {
    return statusReads.commonLastDate(this.#d1, market);
  }

  storage(market: "CN" | "US"): Promise<{ symbols: number; bytes: number }> {
    return statusReads.storage(this.#d1, market);
  }
}

/**
 * The synced universe for the market-data service (live): members once a sync of the market
 * completed, and the listing a provider names for a US symbol.
 */
export class D1SyncedUniverse implements SyncedUniverse {
  readonly #d1: D1Database;
  readonly #store: D1SyncStore;

  constructor(d1: D1Database) {
    this.#d1 = d1;
    this.#store = new D1SyncStore(d1);
  }

  async members(market: "CN" | "US"): Promise<ReadonlySet<string> | null> {
    return (await this.#store.lastCompletedRun(market)) ? this.#store.members(market) : null;
  }

  async recordListing(symbolId: string, l: ProviderListing, now: number): Promise<void> {
    const currency = l.currency === "USD" || l.currency === "CNY" ? l.currency : null;
    const kind = l.kind === "stock" || l.kind === "etf" ? l.kind : null;
    await this.#d1
      .prepare(
        `UPDATE market_symbols SET name = coalesce(?2, name), venue = coalesce(?3, venue),
           currency = coalesce(?4, currency), kind = coalesce(?5, kind), updated_at = ?6
         WHERE id = ?1`,
      )
      .bind(symbolId, l.name, l.venue, currency, kind, now)
      .run();
  }
}
