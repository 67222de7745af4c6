/**
 * D1MarketCache: the symbol universe and cached daily series in D1 (tables market_symbols,
 * market_series, market_bar_chunks). Series are written whole (meta + yearly chunks in one batch)
 * and read back joined by year — a series' meta and its chunks in one statement (500 ids per
 * statement, a universe read one statement per market), rows as arrays; a read of the last bars
 * moves only the newest years' chunks — and the chunks decoded by
 * lib/bar-chunks.ts (v2, or v1 JSON rows written before). With the market snapshots wired in,
 * whole-market reads (`getColumnsMany`, `seriesOfMarket`) take a market's snapshot instead
 * (storage/market-snapshot-repo.ts: one object, typed-array columns) and the chunks for whatever it
 * does not hold or holds stale: the symbols written since its build are read from the chunks, the
 * rest from the snapshot; after a change of the market's stocks it is not served at all.
 */
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { MarketCode, SecurityKind, SymbolInfo } from "../contracts/market";
import type { Bar } from "../contracts/analysis";
import { decodeBarColumnsMany, decodeBarsTail, encodeBarChunks } from "../lib/bar-chunks";
import type { SnapshotSeries } from "../lib/market-snapshot";
import type { CachedColumns, CachedSeries, MarketCache } from "../ports/market-data";
import type { Db } from "./db";
import type { MarketSnapshots } from "./market-snapshot-repo";
import { marketBarChunks, marketSeries, marketSymbols } from "./schema";

type SymbolRow = typeof marketSymbols.$inferSelect;
type SeriesRow = typeof marketSeries.$inferSelect;

function toSymbol(r: SymbolRow): SymbolInfo {
  return {
    id: r.id,
    market: r.market,
    exchange: r.exchange,
    code: r.code,
    name: r.name,
    pinyin: r.pinyin,
    kind: r.kind,
    board: r.board,
    industry: r.industry,
    status: r.status,
    currency: r.currency,
    simulated: r.simulated,
  };
}

/** What a cached series' reader needs of its `market_series` row. */
type SeriesMeta = Pick<SeriesRow, "symbolId" | "adjust" | "origin" | "fetchedAt" | "simulated">;

/** Ids read per statement (one bound JSON array, so D1's parameter cap does not apply). */
const IDS_PER_READ = 500;
const META_COLUMNS = "s.symbol_id, s.adjust, s.origin, s.fetched_at, s.simulated";
/** A row of a series-and-chunks read: the series' columns, then one chunk (null when it has none). */
type SeriesChunkRow = [string, SeriesRow["adjust"], SeriesRow["origin"], number, number, string | null];

/** A series-and-chunks row with a trailing flag: 1 when the series has chunks older than those read. */
type TailChunkRow = [...SeriesChunkRow, number];

/** Groups rows ordered by symbol (then year) into one call per series (with the series' first row). */
function groupRows<R extends SeriesChunkRow | TailChunkRow>(
  rows: readonly R[],
  each: (meta: SeriesMeta, chunks: string[], first: R) => void,
): void {
  let i = 0;
  while (i < rows.length) {
    const first = rows[i] as R;
    const [symbolId, adjust, origin, fetchedAt, simulated] = first;
    const chunks: string[] = [];
    for (; i < rows.length && (rows[i] as R)[0] === symbolId; i++) {
      const bars = (rows[i] as R)[5];
      if (bars !== null) chunks.push(bars);
    }
    each({ symbolId, adjust, origin, fetchedAt, simulated: simulated === 1 }, chunks, first);
  }
}

/**
 * Fewest bars a whole calendar year of a listed series holds (A-shares ≈ 242 trading days, US ≈
 * 252; a long suspension holds fewer, and its series then reads its older chunks too).
 */
const BARS_PER_YEAR = 240;

function toSeries(meta: SeriesMeta, chunks: string[], lastBars?: number): CachedSeries {
  return {
    symbolId: meta.symbolId,
    bars: decodeBarsTail(chunks, lastBars),
    adjust: meta.adjust,
    origin: meta.origin,
    fetchedAt: meta.fetchedAt,
    simulated: meta.simulated,
  };
}

/** Bars of columns whose year is `fromYear` or later, as bar objects (the last `lastBars` of those). */
function barsFrom(s: SnapshotSeries, fromYear: number, lastBars?: number): Bar[] {
  const c = s.columns;
  const n = c.close.length;
  const from = `${String(fromYear).padStart(4, "0")}`;
  let start = 0;
  while (start < n && (c.date[start] ?? "").slice(0, 4) < from) start++;
  if (lastBars !== undefined) start = Math.max(start, n - lastBars);
  const out = new Array<Bar>(n - start);
  for (let i = start; i < n; i++) {
    const bar: Bar = {
      date: c.date[i] ?? "",
      open: c.open[i] ?? 0,
      high: c.high[i] ?? 0,
      low: c.low[i] ?? 0,
      close: c.close[i] ?? 0,
      volume: c.volume[i] ?? 0,
    };
    const amt = c.amount[i] ?? Number.NaN;
    if (!Number.isNaN(amt)) bar.amount = amt;
    out[i - start] = bar;
  }
  return out;
}

/** Escapes LIKE wildcards in user text. */
function likeText(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** The market cache in D1. */
export class D1MarketCache implements MarketCache {
  readonly #db: Db;
  readonly #d1: D1Database;
  readonly #snapshots: MarketSnapshots | null;

  constructor(db: Db, snapshots?: MarketSnapshots) {
    this.#db = db;
    this.#d1 = db.$client;
    this.#snapshots = snapshots ?? null;
  }

  /** Rebuilds a market's snapshot from the chunks (after a sync run; no-op without snapshots wired). */
  async rebuildSnapshot(market: MarketCode, runId: string | null, now: number) {
    return this.#snapshots ? this.#snapshots.rebuild(market, runId, (m) => this.chunkSeriesOfMarket(m), now) : null;
  }

  /**
   * Every stored stock series of a market, whole, as columns with their meta — read from the chunks
   * (one statement; what a snapshot is built from).
   */
  async chunkSeriesOfMarket(market: MarketCode): Promise<SnapshotSeries[]> {
    const rows = await this.#d1
      .prepare(
        `SELECT ${META_COLUMNS}, c.bars
         FROM market_series s
         JOIN market_symbols m ON m.id = s.symbol_id
         LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
         WHERE m.market = ?1 AND m.kind = 'stock'
         ORDER BY s.symbol_id, c.year`,
      )
      .bind(market)
      .raw<SeriesChunkRow>();
    const metas: SeriesMeta[] = [];
    const texts: string[][] = [];
    groupRows(rows, (meta, chunks) => {
      metas.push(meta);
      texts.push(chunks);
    });
    return decodeBarColumnsMany(texts).map((columns, i) => {
      const m = metas[i] as SeriesMeta;
      return {
        symbolId: m.symbolId,
        adjust: m.adjust,
        origin: m.origin,
        fetchedAt: m.fetchedAt,
        simulated: m.simulated,
        columns,
      };
    });
  }

  async getSymbol(id: string): Promise<SymbolInfo | null> {
    const row = await this.#db.select().from(marketSymbols).where(eq(marketSymbols.id, id)).get();
    return row ? toSymbol(row) : null;
  }

  async symbolsByCode(code: string): Promise<SymbolInfo[]> {
    const rows = await this.#db.select().from(marketSymbols).where(eq(marketSymbols.code, code)).all();
    return rows.map(toSymbol);
  }

  async searchSymbols(query: string, limit: number): Promise<SymbolInfo[]> {
    const q = query.trim();
    if (q === "") return [];
    const up = likeText(q.toUpperCase());
    const esc = likeText(q);
    const rows = await this.#db
      .select()
      .from(marketSymbols)
      .where(
        or(
          sql`${marketSymbols.code} LIKE ${`${up}%`} ESCAPE '\\'`,
          sql`${marketSymbols.id} LIKE ${`${up}%`} ESCAPE '\\'`,
          sql`${marketSymbols.name} LIKE ${`%${esc}%`} ESCAPE '\\'`,
          sql`${marketSymbols.pinyin} LIKE ${`${up}%`} ESCAPE '\\'`,
        ),
      )
      .orderBy(
        sql`CASE WHEN ${marketSymbols.code} = ${q.toUpperCase()} OR ${marketSymbols.name} = ${q} THEN 0 WHEN ${marketSymbols.name} LIKE ${`${esc}%`} ESCAPE '\\' THEN 1 ELSE 2 END`,
        asc(marketSymbols.kind),
        asc(marketSymbols.id),
      )
      .limit(limit)
      .all();
    return rows.map(toSymbol);
  }

  async listSymbols(market: MarketCode, kind?: SecurityKind): Promise<SymbolInfo[]> {
    const where = kind
      ? and(eq(marketSymbols.market, market), eq(marketSymbols.kind, kind))
      : eq(marketSymbols.market, market);
    const rows = await this.#db.select().from(marketSymbols).where(where).orderBy(asc(marketSymbols.id)).all();
    return rows.map(toSymbol);
  }

  async upsertSymbols(symbols: readonly SymbolInfo[], now: number): Promise<void> {
    if (symbols.length === 0) return;
    const stmts = symbols.map((s) =>
      this.#db
        .insert(marketSymbols)
        .values({ ...s, updatedAt: now })
        .onConflictDoUpdate({
          target: marketSymbols.id,
          set: {
            name: s.name,
            // Providers without pinyin (the snapshot) keep what search providers stored.
            pinyin: s.pinyin === "" ? sql`${marketSymbols.pinyin}` : s.pinyin,
            board: s.board,
            industry: s.industry ?? sql`${marketSymbols.industry}`,
            status: s.status,
            updatedAt: now,
          },
        }),
    );
    for (let i = 0; i < stmts.length; i += 200) {
      const [first, ...rest] = stmts.slice(i, i + 200);
      if (first) await this.#db.batch([first, ...rest]);
    }
  }

  async getSeries(symbolId: string): Promise<CachedSeries | null> {
    const [found] = await this.getSeriesMany([symbolId]);
    return found ?? null;
  }

  async getSeriesMany(symbolIds: readonly string[]): Promise<CachedSeries[]> {
    const out: CachedSeries[] = [];
    await this.#chunksOf(symbolIds, (meta, chunks) => out.push(toSeries(meta, chunks)));
    return out;
  }

  async getColumnsMany(symbolIds: readonly string[], lastBars?: number): Promise<CachedColumns[]> {
    if (!this.#snapshots || symbolIds.length === 0) return this.#chunkColumnsMany(symbolIds, lastBars);
    const served = await this.#snapshots.servingFor(symbolIds);
    if (served.length === 0) return this.#chunkColumnsMany(symbolIds, lastBars);
    const unique = [...new Set(symbolIds)];
    const out: CachedColumns[] = [];
    let rest = unique;
    for (const { snap, dirty } of served) {
      const fresh = (id: string) => snap.has(id) && !dirty.has(id);
      for (const s of snap.columnsMany(rest.filter(fresh), lastBars))
        out.push({ symbolId: s.symbolId, columns: s.columns });
      rest = rest.filter((id) => !fresh(id));
    }
    if (rest.length > 0) out.push(...(await this.#chunkColumnsMany(rest, lastBars)));
    return out;
  }

  async #chunkColumnsMany(symbolIds: readonly string[], lastBars?: number): Promise<CachedColumns[]> {
    if (lastBars !== undefined && lastBars > 0 && Number.isFinite(lastBars))
      return this.#tailColumnsMany(symbolIds, lastBars);
    const ids: string[] = [];
    const texts: string[][] = [];
    await this.#chunksOf(symbolIds, (meta, chunks) => {
      ids.push(meta.symbolId);
      texts.push(chunks);
    });
    // One buffer for every series' columns: a screening batch allocates once, not per symbol.
    return decodeBarColumnsMany(texts, lastBars).map((columns, i) => ({ symbolId: ids[i] ?? "", columns }));
  }

  /**
   * The last `lastBars` bars of each series from its newest chunks: one statement per 500 ids reads
   * the chunks from `ceil(lastBars / BARS_PER_YEAR)` years before the year of the series' last bar
   * on (a whole history is not moved to decode its tail), and only the series those hold fewer than
   * `lastBars` bars of while older chunks exist read the older ones in a second statement. Equal to
   * decoding every chunk's tail.
   */
  async #tailColumnsMany(symbolIds: readonly string[], lastBars: number): Promise<CachedColumns[]> {
    const yearsBack = Math.ceil(lastBars / BARS_PER_YEAR);
    const unique = [...new Set(symbolIds)];
    const out: CachedColumns[] = [];
    for (let i = 0; i < unique.length; i += IDS_PER_READ) {
      const ids: string[] = [];
      const texts: string[][] = [];
      const older: boolean[] = [];
      const rows = await this.#d1
        .prepare(
          `SELECT ${META_COLUMNS}, c.bars,
             CAST(substr(s.first_date, 1, 4) AS INTEGER) < CAST(substr(s.last_date, 1, 4) AS INTEGER) - ?2
           FROM json_each(?1) AS k
           JOIN market_series s ON s.symbol_id = k.value
           LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
             AND c.year >= CAST(substr(s.last_date, 1, 4) AS INTEGER) - ?2
           ORDER BY s.symbol_id, c.year`,
        )
        .bind(JSON.stringify(unique.slice(i, i + IDS_PER_READ)), yearsBack)
        .raw<TailChunkRow>();
      groupRows(rows, (meta, chunks, first) => {
        ids.push(meta.symbolId);
        texts.push(chunks);
        older.push(first[6] === 1);
      });
      // One buffer for every series' columns: a screening batch allocates once, not per symbol.
      const columns = decodeBarColumnsMany(texts, lastBars);
      const short = ids.filter((_, k) => older[k] && (columns[k]?.close.length ?? 0) < lastBars);
      if (short.length > 0) {
        const earlier = new Map<string, string[]>();
        const more = await this.#d1
          .prepare(
            `SELECT c.symbol_id, c.bars
             FROM json_each(?1) AS k
             JOIN market_series s ON s.symbol_id = k.value
             JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
               AND c.year < CAST(substr(s.last_date, 1, 4) AS INTEGER) - ?2
             ORDER BY c.symbol_id, c.year`,
          )
          .bind(JSON.stringify(short), yearsBack)
          .raw<[string, string]>();
        for (const [id, bars] of more) {
          const list = earlier.get(id);
          if (list) list.push(bars);
          else earlier.set(id, [bars]);
        }
        const again = ids.flatMap((id, k) => (earlier.has(id) ? [k] : []));
        const redone = decodeBarColumnsMany(
          again.map((k) => [...(earlier.get(ids[k] ?? "") ?? []), ...(texts[k] ?? [])]),
          lastBars,
        );
        again.forEach((k, j) => {
          const c = redone[j];
          if (c) columns[k] = c;
        });
      }
      columns.forEach((c, k) => out.push({ symbolId: ids[k] ?? "", columns: c }));
    }
    return out;
  }

  /**
   * Reads the series rows and their yearly chunks (ascending) in one statement per 500 ids (the ids
   * bound as one JSON array, read with `json_each`; rows as arrays, not objects); `each` per found series.
   */
  async #chunksOf(symbolIds: readonly string[], each: (meta: SeriesMeta, chunks: string[]) => void): Promise<void> {
    const unique = [...new Set(symbolIds)];
    for (let i = 0; i < unique.length; i += IDS_PER_READ) {
      const ids = unique.slice(i, i + IDS_PER_READ);
      const rows = await this.#d1
        .prepare(
          `SELECT ${META_COLUMNS}, c.bars
           FROM json_each(?1) AS k
           JOIN market_series s ON s.symbol_id = k.value
           LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
           ORDER BY s.symbol_id, c.year`,
        )
        .bind(JSON.stringify(ids))
        .raw<SeriesChunkRow>();
      groupRows(rows, each);
    }
  }

  /**
   * Every cached series of a market's stocks (kind `stock`), chunks from `fromYear` on; one statement.
   * With `lastBars`, only each series' last `lastBars` bars: the first statement reads the chunks from
   * the year of each series' last bar on, and only series those do not cover read their earlier
   * chunks (from `fromYear`) in a second — the regime's 40-day read moves one chunk per symbol.
   */
  async seriesOfMarket(market: MarketCode, fromYear: number, lastBars?: number): Promise<CachedSeries[]> {
    const served = this.#snapshots ? await this.#snapshots.serving(market) : null;
    // Most of the market rewritten since the build (a run midway): one chunk read is cheaper.
    if (served && served.dirty.size * 2 <= served.snap.ids.length) {
      const { snap, dirty } = served;
      // As the chunk read: every series, in symbol order (bars may be empty); decoded 250 series at a
      // time so the typed-array scratch stays small beside the bar objects. The symbols written since
      // the build come from their chunks (whether or not the snapshot held them).
      const ids = snap.ids.filter((id) => !dirty.has(id)).sort();
      const out: CachedSeries[] = [];
      for (let i = 0; i < ids.length; i += 250)
        for (const s of snap.columnsMany(ids.slice(i, i + 250)))
          out.push({
            symbolId: s.symbolId,
            bars: barsFrom(s, fromYear, lastBars),
            adjust: s.adjust,
            origin: s.origin,
            fetchedAt: s.fetchedAt,
            simulated: s.simulated,
          });
      if (dirty.size === 0) return out;
      const written = [...dirty];
      for (let i = 0; i < written.length; i += IDS_PER_READ)
        out.push(...(await this.#chunkSeriesOfMarket(market, fromYear, lastBars, written.slice(i, i + IDS_PER_READ))));
      return out.sort((a, b) => (a.symbolId < b.symbolId ? -1 : a.symbolId > b.symbolId ? 1 : 0));
    }
    return this.#chunkSeriesOfMarket(market, fromYear, lastBars);
  }

  /** The chunk read of `seriesOfMarket`: the market's stocks, or only those of `only` among them. */
  async #chunkSeriesOfMarket(
    market: MarketCode,
    fromYear: number,
    lastBars?: number,
    only?: readonly string[],
  ): Promise<CachedSeries[]> {
    const newest = lastBars !== undefined;
    const stmt = this.#d1.prepare(
      `SELECT ${META_COLUMNS}, c.bars
         FROM ${only ? "json_each(?3) AS k JOIN market_series s ON s.symbol_id = k.value" : "market_series s"}
         JOIN market_symbols m ON m.id = s.symbol_id
         LEFT JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
           AND c.year >= ${newest ? "max(?2, CAST(substr(s.last_date, 1, 4) AS INTEGER))" : "?2"}
         WHERE m.market = ?1 AND m.kind = 'stock'
         ORDER BY s.symbol_id, c.year`,
    );
    const rows = await (
      only ? stmt.bind(market, fromYear, JSON.stringify(only)) : stmt.bind(market, fromYear)
    ).raw<SeriesChunkRow>();
    const found: { meta: SeriesMeta; chunks: string[] }[] = [];
    groupRows(rows, (meta, chunks) => found.push({ meta, chunks }));
    const out = found.map((f) => toSeries(f.meta, f.chunks, lastBars));
    if (newest) {
      const short = found.filter((_, i) => (out[i]?.bars.length ?? 0) < lastBars);
      const earlier = new Map<string, string[]>();
      for (let i = 0; i < short.length; i += IDS_PER_READ) {
        const older = await this.#d1
          .prepare(
            `SELECT c.symbol_id, c.bars
             FROM json_each(?1) AS k
             JOIN market_series s ON s.symbol_id = k.value
             JOIN market_bar_chunks c ON c.symbol_id = s.symbol_id
               AND c.year >= ?2 AND c.year < CAST(substr(s.last_date, 1, 4) AS INTEGER)
             ORDER BY c.symbol_id, c.year`,
          )
          .bind(JSON.stringify(short.slice(i, i + IDS_PER_READ).map((f) => f.meta.symbolId)), fromYear)
          .raw<[string, string]>();
        for (const [id, bars] of older) {
          const list = earlier.get(id);
          if (list) list.push(bars);
          else earlier.set(id, [bars]);
        }
      }
      found.forEach((f, i) => {
        const before = earlier.get(f.meta.symbolId);
        if (before) out[i] = toSeries(f.meta, [...before, ...f.chunks], lastBars);
      });
    }
    return out;
  }

  async putSeries(s: CachedSeries): Promise<void> {
    const first = s.bars[0];
    const last = s.bars[s.bars.length - 1];
    if (!first || !last) return;
    const meta = {
      symbolId: s.symbolId,
      adjust: s.adjust,
      origin: s.origin,
      firstDate: first.date,
      lastDate: last.date,
      barCount: s.bars.length,
      simulated: s.simulated,
      fetchedAt: s.fetchedAt,
    };
    await this.#db.batch([
      this.#db.delete(marketBarChunks).where(eq(marketBarChunks.symbolId, s.symbolId)),
      this.#db.insert(marketSeries).values(meta).onConflictDoUpdate({ target: marketSeries.symbolId, set: meta }),
      ...encodeBarChunks(s.bars).map((c) => this.#db.insert(marketBarChunks).values({ symbolId: s.symbolId, ...c })),
    ]);
  }
}
