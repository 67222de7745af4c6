/**
 * D1MarketCache: the symbol universe and cached daily series in D1 (tables market_symbols,
 * market_series, market_bar_chunks). Series are written whole (meta + yearly chunks in one batch)
 * and read back joined by year; a universe read is one query per market.
 */
import { and, asc, eq, gte, inArray, or, sql } from "drizzle-orm";
import type { MarketCode, SecurityKind, SymbolInfo } from "../contracts/market";
import { decodeBarChunk, decodeBarColumnsMany, encodeBarChunks } from "../lib/bar-chunks";
import type { CachedColumns, CachedSeries, MarketCache } from "../ports/market-data";
import type { Db } from "./db";
import { marketBarChunks, marketSeries, marketSymbols } from "./schema";

type SymbolRow = typeof marketSymbols.$inferSelect;
type SeriesRow = typeof marketSeries.$inferSelect;

/** D1 caps bound parameters per statement; id lists are read in slices below it. */
const MAX_PARAMS = 90;

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

function toSeries(meta: SeriesRow, chunks: string[]): CachedSeries {
  return {
    symbolId: meta.symbolId,
    bars: chunks.flatMap(decodeBarChunk),
    adjust: meta.adjust,
    origin: meta.origin,
    fetchedAt: meta.fetchedAt,
    simulated: meta.simulated,
  };
}

/** Escapes LIKE wildcards in user text. */
function likeText(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** The market cache in D1. */
export class D1MarketCache implements MarketCache {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
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
    const ids: string[] = [];
    const texts: string[][] = [];
    await this.#chunksOf(symbolIds, (meta, chunks) => {
      ids.push(meta.symbolId);
      texts.push(chunks);
    });
    // One buffer for every series' columns: a screening batch allocates once, not per symbol.
    return decodeBarColumnsMany(texts, lastBars).map((columns, i) => ({ symbolId: ids[i] ?? "", columns }));
  }

  /** Reads the series rows and their yearly chunks (ascending) in id slices; `each` per found series. */
  async #chunksOf(symbolIds: readonly string[], each: (meta: SeriesRow, chunks: string[]) => void): Promise<void> {
    for (let i = 0; i < symbolIds.length; i += MAX_PARAMS) {
      const ids = symbolIds.slice(i, i + MAX_PARAMS);
      const metas = await this.#db.select().from(marketSeries).where(inArray(marketSeries.symbolId, ids)).all();
      if (metas.length === 0) continue;
      const chunks = await this.#db
        .select()
        .from(marketBarChunks)
        .where(inArray(marketBarChunks.symbolId, ids))
        .orderBy(asc(marketBarChunks.symbolId), asc(marketBarChunks.year))
        .all();
      const bySymbol = new Map<string, string[]>();
      for (const c of chunks) {
        const list = bySymbol.get(c.symbolId);
        if (list) list.push(c.bars);
        else bySymbol.set(c.symbolId, [c.bars]);
      }
      for (const m of metas) each(m, bySymbol.get(m.symbolId) ?? []);
    }
  }

  /** Every cached series of a market's stocks (kind `stock`), chunks from `fromYear` on; one query. */
  async seriesOfMarket(market: MarketCode, fromYear: number): Promise<CachedSeries[]> {
    const metas = await this.#db
      .select({ meta: marketSeries })
      .from(marketSeries)
      .innerJoin(marketSymbols, eq(marketSymbols.id, marketSeries.symbolId))
      .where(and(eq(marketSymbols.market, market), eq(marketSymbols.kind, "stock")))
      .all();
    const chunks = await this.#db
      .select({ symbolId: marketBarChunks.symbolId, bars: marketBarChunks.bars })
      .from(marketBarChunks)
      .innerJoin(marketSymbols, eq(marketSymbols.id, marketBarChunks.symbolId))
      .where(
        and(eq(marketSymbols.market, market), eq(marketSymbols.kind, "stock"), gte(marketBarChunks.year, fromYear)),
      )
      .orderBy(asc(marketBarChunks.symbolId), asc(marketBarChunks.year))
      .all();
    const bySymbol = new Map<string, string[]>();
    for (const c of chunks) {
      const list = bySymbol.get(c.symbolId);
      if (list) list.push(c.bars);
      else bySymbol.set(c.symbolId, [c.bars]);
    }
    return metas.map(({ meta }) => toSeries(meta, bySymbol.get(meta.symbolId) ?? []));
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
