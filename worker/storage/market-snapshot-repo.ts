/**
 * The whole-market snapshots (lib/market-snapshot.ts) in R2, indexed by D1's `market_snapshots`:
 * one object per market and store generation, written after a sync run completes and rebuildable at
 * any time from the per-symbol chunks (they stay the store; the snapshot is a copy).
 *
 * Consistency: every write to a market's stored bars bumps its `generation` and records it as the
 * written symbol's last write generation (`market_symbol_generation`); every change of which stocks
 * the market holds also bumps its `membership` (SQL triggers, whatever path writes; migration 0021).
 * A build reads the generation, then the chunks, and publishes only if the generation has not moved
 * since (`WHERE generation = ?`) — so a published snapshot holds exactly the store at its
 * generation. Readers serve it while its `built_membership` is current, and take from the chunks
 * exactly the symbols written after its `built_generation` (a per-symbol refetch, a partial run's
 * appends) — read in the same statement as the snapshot's row, through the (market, generation)
 * index; a membership change sends every read back to the chunks until the next build. A
 * redelivered build at the same generation writes the same bytes under the same key.
 */
import type { MarketCode } from "../contracts/market";
import { encodeMarketSnapshot, MarketSnapshot, type SnapshotSeries } from "../lib/market-snapshot";

/**
 * How objects are stored: as is (the default) or gzip (`CompressionStream`). The encoding is already
 * compact (deltas in the narrowest width), so gzip saves only ≈ 24% (5,750 → 4,371 bytes a symbol)
 * while its `DecompressionStream` read is the slowest part of a cold load: 5,300 symbols 2.95 s
 * against 1.40 s uncompressed in one bench run (load 7–9), 19.2 s against 1.3 s in another (load
 * 10–15; `market_snapshot_load*`). Readers take either (by the key's suffix), so objects written
 * gzip before stay readable.
 */
export type SnapshotCompression = "gzip" | "none";

const PREFIX = "market-snapshots/";

/** What a build published (null fields when the store moved during the build and nothing was published). */
export interface SnapshotBuild {
  published: boolean;
  key: string;
  generation: number;
  series: number;
  bars: number;
  /** Stored object size (after compression). */
  bytes: number;
  /** Encoded size before compression. */
  rawBytes: number;
  asOf: string;
}

/** Reads every stored stock series of a market from the per-symbol chunks (D1MarketCache). */
export type ChunkReader = (market: MarketCode) => Promise<SnapshotSeries[]>;

/** A servable snapshot and the symbols written since its build (read those from the chunks). */
export interface ServedSnapshot {
  snap: MarketSnapshot;
  dirty: ReadonlySet<string>;
}

/**
 * The servable snapshots of the markets `markets` selects, each with the ids written since its build
 * as a JSON array (the subquery reads the (market, generation) index: as many rows as dirty symbols).
 */
export function servableSql(markets: string): string {
  return `SELECT s.market, s.key,
      (SELECT json_group_array(g.symbol_id) FROM market_symbol_generation g
       WHERE g.market = s.market AND g.generation > s.built_generation) AS dirty
    FROM market_snapshots s
    WHERE s.market IN (${markets}) AND s.key IS NOT NULL AND s.built_membership = s.membership`;
}

interface Loaded {
  key: string;
  snap: Promise<MarketSnapshot | null>;
}

/** Parsed snapshots by market, shared by every reader in the isolate (one per market: the newest read). */
const loaded = new Map<string, Loaded>();

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(buf: ArrayBuffer): Promise<Uint8Array> {
  const stream = new Blob([buf]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export class MarketSnapshots {
  readonly #d1: D1Database;
  readonly #bucket: R2Bucket;
  readonly #compression: SnapshotCompression;

  constructor(d1: D1Database, bucket: R2Bucket, opts: { compression?: SnapshotCompression } = {}) {
    this.#d1 = d1;
    this.#bucket = bucket;
    this.#compression = opts.compression ?? "none";
  }

  /** Builds the market's snapshot from the chunks and publishes it unless the store moved meanwhile. */
  async rebuild(market: MarketCode, runId: string | null, read: ChunkReader, now: number): Promise<SnapshotBuild> {
    await this.#d1
      .prepare(`INSERT INTO market_snapshots (market, generation) VALUES (?1, 0) ON CONFLICT(market) DO NOTHING`)
      .bind(market)
      .run();
    const row = await this.#d1
      .prepare(`SELECT generation, membership, key FROM market_snapshots WHERE market = ?1`)
      .bind(market)
      .first<{ generation: number; membership: number; key: string | null }>();
    const generation = row?.generation ?? 0;
    const series = await read(market);
    let asOf = "";
    let bars = 0;
    for (const s of series) {
      const last = s.columns.date[s.columns.date.length - 1] ?? "";
      if (last > asOf) asOf = last;
      bars += s.columns.close.length;
    }
    const raw = encodeMarketSnapshot({ market, asOf, runId, generation }, series);
    const body = this.#compression === "gzip" ? await gzip(raw) : raw;
    const key = `${PREFIX}${market}/${asOf || "empty"}-g${generation}.${this.#compression === "gzip" ? "bin.gz" : "bin"}`;
    await this.#bucket.put(key, body);
    const done = await this.#d1
      .prepare(
        `UPDATE market_snapshots SET built_generation = ?2, built_membership = ?9, key = ?3, run_id = ?4, as_of = ?5,
           bytes = ?6, series = ?7, built_at = ?8
         WHERE market = ?1 AND generation = ?2`,
      )
      .bind(market, generation, key, runId, asOf, body.length, series.length, now, row?.membership ?? 0)
      .run();
    const published = (done.meta.changes ?? 0) > 0;
    const old = row?.key ?? null;
    if (published && old && old !== key) await this.#bucket.delete(old);
    if (!published && old !== key) await this.#bucket.delete(key);
    return { published, key, generation, series: series.length, bars, bytes: body.length, rawBytes: raw.length, asOf };
  }

  /**
   * The servable snapshot of each market these symbols belong to (markets without one omitted), with
   * the symbols written since it was built — one statement.
   */
  async servingFor(symbolIds: readonly string[]): Promise<ServedSnapshot[]> {
    const rows = await this.#d1
      .prepare(servableSql("SELECT m.market FROM json_each(?1) AS k JOIN market_symbols m ON m.id = k.value"))
      .bind(JSON.stringify([...new Set(symbolIds)]))
      .raw<[string, string, string]>();
    return this.#serve(rows);
  }

  /** The market's servable snapshot with the symbols written since its build, or null (none built, or its membership moved). */
  async serving(market: MarketCode): Promise<ServedSnapshot | null> {
    const rows = await this.#d1.prepare(servableSql("?1")).bind(market).raw<[string, string, string]>();
    return (await this.#serve(rows))[0] ?? null;
  }

  async #serve(rows: readonly [string, string, string][]): Promise<ServedSnapshot[]> {
    const out: ServedSnapshot[] = [];
    for (const [market, key, dirty] of rows) {
      const [snap] = await this.#load([[market, key]]);
      if (snap) out.push({ snap, dirty: new Set(JSON.parse(dirty) as string[]) });
    }
    return out;
  }

  /** The market's snapshot if the store has not moved at all since its build, else null. */
  async current(market: MarketCode): Promise<MarketSnapshot | null> {
    const rows = await this.#d1
      .prepare(
        `SELECT market, key FROM market_snapshots WHERE market = ?1 AND key IS NOT NULL AND built_generation = generation`,
      )
      .bind(market)
      .raw<[string, string]>();
    return (await this.#load(rows))[0] ?? null;
  }

  async #load(rows: readonly [string, string][]): Promise<MarketSnapshot[]> {
    const out: MarketSnapshot[] = [];
    for (const [market, key] of rows) {
      let l = loaded.get(market);
      if (!l || l.key !== key) {
        l = { key, snap: this.#fetch(key).catch(() => null) };
        loaded.set(market, l);
      }
      const snap = await l.snap;
      if (snap) out.push(snap);
      else if (loaded.get(market) === l) loaded.delete(market); // unreadable or gone: try again next time
    }
    return out;
  }

  async #fetch(key: string): Promise<MarketSnapshot | null> {
    const obj = await this.#bucket.get(key);
    if (!obj) return null;
    const buf = await obj.arrayBuffer();
    const bytes = key.endsWith(".gz") ? await gunzip(buf).catch(() => null) : new Uint8Array(buf);
    return bytes ? MarketSnapshot.parse(bytes) : null;
  }
}

/** Forgets the isolate's parsed snapshots (tests and benches measuring a cold read). */
export function forgetLoadedSnapshots(): void {
  loaded.clear();
}
